import { AccessLevel } from '@gitbeaker/rest';
import { corePlugin } from '@forgekit/plugin-core';
import { issuesPlugin } from '@forgekit/plugin-issues';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { python } from './support/python-gitlab.js';

describe('milestones through @gitbeaker/rest and python-gitlab', () => {
  let server: ListeningServer;
  let api: Api;
  let reporter: UserWithToken;
  let guest: UserWithToken;
  let groupId: number;
  let projectId: number;

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin]);
    api = clientFor(server, server.rootToken);
    groupId = (await api.Groups.create('Planning Group', 'planning-group')).id;
    projectId = (await api.Projects.create({ name: 'Planning Project', namespaceId: groupId })).id;
    reporter = await createUserWithToken(api, server, 'rita');
    guest = await createUserWithToken(api, server, 'gus');
    await api.GroupMembers.add(groupId, AccessLevel.REPORTER, { userId: reporter.id });
    await api.GroupMembers.add(groupId, AccessLevel.GUEST, { userId: guest.id });
  });
  afterAll(() => server?.close());

  it('manages project milestones', async () => {
    const created = await reporter.api.ProjectMilestones.create(projectId, 'v1.0', { description: 'First', startDate: '2030-01-01', dueDate: '2030-02-01' });
    expect(created).toMatchObject({ iid: 1, project_id: projectId, title: 'v1.0', state: 'active', start_date: '2030-01-01', due_date: '2030-02-01' });
    expect(created.web_url).toBe(`${server.url}/planning-group/planning-project/-/milestones/1`);

    expect(await guest.api.ProjectMilestones.show(projectId, created.id)).toEqual(created);
    expect((await guest.api.ProjectMilestones.all(projectId, { state: 'active' })).map((m) => m.id)).toEqual([created.id]);
    expect(await guest.api.ProjectMilestones.allAssignedIssues(projectId, created.id)).toEqual([]);

    const closed = await reporter.api.ProjectMilestones.edit(projectId, created.id, { stateEvent: 'close', title: 'v1.0 final' });
    expect(closed).toMatchObject({ state: 'closed', title: 'v1.0 final' });
    expect(await guest.api.ProjectMilestones.all(projectId, { state: 'active' })).toEqual([]);

    expect(await failureOf(guest.api.ProjectMilestones.create(projectId, 'nope'))).toEqual({ status: 403, description: '403 Forbidden' });
    expect(await failureOf(reporter.api.ProjectMilestones.create(projectId, 'bad', { startDate: '2030-02-01', dueDate: '2030-01-01' }))).toEqual({
      status: 400,
      description: `Failed to create milestone {:due_date=>["must be greater than start date"]}`,
    });

    await reporter.api.ProjectMilestones.remove(projectId, created.id);
    expect(await failureOf(guest.api.ProjectMilestones.show(projectId, created.id))).toEqual({ status: 404, description: '404 Not found' });
  });

  it('manages group milestones', async () => {
    const created = await reporter.api.GroupMilestones.create(groupId, 'Q3');
    expect(created).toMatchObject({ iid: 1, group_id: groupId, title: 'Q3', web_url: `${server.url}/groups/planning-group/-/milestones/1` });
    expect((await guest.api.GroupMilestones.all(groupId)).map((m) => m.id)).toEqual([created.id]);
    const inProject = await guest.api.ProjectMilestones.all(projectId, { includeParentMilestones: true } as never);
    expect(inProject.map((m) => m.id)).toContain(created.id);
    expect(await reporter.api.GroupMilestones.edit(groupId, created.id, { description: 'third quarter' })).toMatchObject({ description: 'third quarter' });
    await reporter.api.GroupMilestones.remove(groupId, created.id);
    expect(await guest.api.GroupMilestones.all(groupId)).toEqual([]);
  });

  it('lists the milestone events of an issue whose milestone changed', async () => {
    const first = await reporter.api.ProjectMilestones.create(projectId, 'events one');
    const second = await reporter.api.ProjectMilestones.create(projectId, 'events two');
    const issue = await reporter.api.Issues.create(projectId, 'Planned', { milestoneId: first.id });
    await reporter.api.Issues.edit(projectId, issue.iid, { milestoneId: second.id });

    const events = await guest.api.IssueMilestoneEvents.all(projectId, issue.iid);
    expect(events.map((event) => [event.action, event.milestone.id])).toEqual([
      ['add', first.id],
      ['remove', first.id],
      ['add', second.id],
    ]);
    expect(events[0]).toMatchObject({ resource_type: 'Issue', resource_id: issue.id, state: 'opened', user: { username: 'rita' } });
    expect(await guest.api.IssueMilestoneEvents.show(projectId, issue.iid, events[2]!.id)).toEqual(events[2]);
    // The issues plugin answers an unknown iid as GitLab's finder does.
    expect(await failureOf(guest.api.IssueMilestoneEvents.all(projectId, issue.iid + 1))).toEqual({ status: 404, description: '404 Not found' });
  });

  it('works through python-gitlab', async () => {
    const result = await python(
      server,
      reporter.token,
      `project = gl.projects.get(${projectId})
m = project.milestones.create({'title': 'py-1', 'due_date': '2031-05-01'})
m.description = 'from python'
m.save()
m.state_event = 'close'
m.save()
closed = [x.title for x in project.milestones.list(state='closed', get_all=True)]
issues = list(m.issues())
shown = project.milestones.get(m.id)
group = gl.groups.get(${groupId})
gm = group.milestones.create({'title': 'py-group'})
group_titles = [x.title for x in group.milestones.list(get_all=True)]
gm.delete()
m.delete()
try:
    project.milestones.get(m.id)
    missing = None
except gitlab.exceptions.GitlabGetError as error:
    missing = error.response_code
print(json.dumps({'closed': closed, 'issues': issues, 'shown': shown.attributes, 'group_titles': group_titles, 'missing': missing}))`,
    );
    expect(result.closed).toContain('py-1');
    expect(result.issues).toEqual([]);
    expect(result.shown).toMatchObject({ title: 'py-1', description: 'from python', state: 'closed', due_date: '2031-05-01' });
    expect(result.group_titles).toContain('py-group');
    expect(result.missing).toBe(404);
  });
});
