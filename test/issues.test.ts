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

describe('issues through @gitbeaker/rest and python-gitlab', () => {
  let server: ListeningServer;
  let api: Api;
  let dev: UserWithToken;
  let guest: UserWithToken;
  let projectId: number;

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin]);
    api = clientFor(server, server.rootToken);
    const group = await api.Groups.create('Issues Group', 'issues-group');
    const project = await api.Projects.create({ name: 'Issues Project', namespaceId: group.id });
    projectId = project.id;
    dev = await createUserWithToken(api, server, 'issuedev');
    guest = await createUserWithToken(api, server, 'issueguest');
    await api.GroupMembers.add(group.id, AccessLevel.DEVELOPER, { userId: dev.id });
    await api.GroupMembers.add(group.id, AccessLevel.GUEST, { userId: guest.id });
  });
  afterAll(() => server?.close());

  it('creates, edits, closes, lists and deletes issues with gitbeaker', async () => {
    const issue = await dev.api.Issues.create(projectId, 'Crash on start', { description: 'Steps', labels: 'bug', assigneeIds: [dev.id] });
    expect(issue).toMatchObject({ iid: 1, title: 'Crash on start', state: 'opened', labels: ['bug'], assignees: [{ username: 'issuedev' }] });

    const edited = await dev.api.Issues.edit(projectId, issue.iid, { stateEvent: 'close', addLabels: 'p1' });
    expect(edited).toMatchObject({ state: 'closed', closed_by: { username: 'issuedev' }, labels: ['bug', 'p1'] });

    const shown = await guest.api.Issues.show(issue.iid, { projectId });
    expect(shown.title).toBe('Crash on start');

    const closed = await api.Issues.all({ projectId, state: 'closed' });
    expect(closed.map((i) => i.iid)).toEqual([1]);
    const labelled = await api.Issues.all({ projectId, labels: 'p1' });
    expect(labelled).toHaveLength(1);

    const notes = await dev.api.IssueNotes.all(projectId, issue.iid, { sort: 'asc' });
    expect(notes.map((n) => n.body)).toEqual([expect.stringMatching(/^added ~\d+ label$/), 'closed']);

    expect(await failureOf(guest.api.Issues.edit(projectId, issue.iid, { title: 'Mine now' }))).toEqual({ status: 403, description: '403 Forbidden' });
    expect(await failureOf(dev.api.Issues.remove(projectId, issue.iid))).toEqual({ status: 403, description: '403 Forbidden' });
    await api.Issues.remove(projectId, issue.iid);
    expect(await failureOf(api.Issues.show(issue.iid, { projectId }))).toEqual({ status: 404, description: '404 Not found' });
  });

  it('creates and lists issues with python-gitlab', async () => {
    const created = (await python(
      server,
      dev.token,
      `project = gl.projects.get(${projectId})\nissue = project.issues.create({'title': 'From python', 'labels': ['python', 'client']})\nprint(json.dumps({'iid': issue.iid, 'labels': issue.labels, 'author': issue.author['username']}))`,
    )) as { iid: number; labels: string[]; author: string };
    expect(created).toEqual({ iid: expect.any(Number), labels: ['client', 'python'], author: 'issuedev' });

    const listed = (await python(
      server,
      guest.token,
      `project = gl.projects.get(${projectId})\nissues = project.issues.list(get_all=True, labels=['python'])\nprint(json.dumps([i.title for i in issues]))`,
    )) as string[];
    expect(listed).toEqual(['From python']);

    const closed = (await python(
      server,
      dev.token,
      `project = gl.projects.get(${projectId})\nissue = project.issues.get(${created.iid})\nissue.state_event = 'close'\nissue.save()\nprint(json.dumps(project.issues.get(${created.iid}).state))`,
    )) as string;
    expect(closed).toBe('closed');
  });

  it('counts issues by state with gitbeaker’s IssuesStatistics', async () => {
    await dev.api.Issues.create(projectId, 'Counted open');
    const closed = await dev.api.Issues.create(projectId, 'Counted closed');
    await dev.api.Issues.edit(projectId, closed.iid, { stateEvent: 'close' });
    const all = await dev.api.IssuesStatistics.all({ projectId });
    const { statistics } = all as unknown as { statistics: { counts: { all: number; closed: number; opened: number } } };
    const list = await dev.api.Issues.all({ projectId });
    expect(statistics.counts).toEqual({
      all: list.length,
      opened: list.filter((issue) => issue.state === 'opened').length,
      closed: list.filter((issue) => issue.state === 'closed').length,
    });
    expect(statistics.counts.opened).toBeGreaterThan(0);
    expect(statistics.counts.closed).toBeGreaterThan(0);
    const grouped = (await dev.api.IssuesStatistics.all({ groupId: 'issues-group' })) as unknown as typeof all;
    expect(grouped).toEqual(all);
  });
});
