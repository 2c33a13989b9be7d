import { AccessLevel } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { rest } from './support/rest.js';

/** A merge request planned on a group milestone: edits, diff versions, milestone events, the milestone's lists, and removal. */
describe('merge requests on milestones through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let admin: Api;
  let dev: UserWithToken;
  let group: { id: number };
  let projectId: number;
  let milestone: { id: number };
  let mr: { iid: number; id: number };
  const call = (method: string, path: string, token: string | null, body?: unknown) => rest(server, method, path, token, body);

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    dev = await createUserWithToken(admin, server, 'mrdev');
    group = (await admin.Groups.create('Delivery', 'delivery')) as unknown as { id: number };
    await admin.GroupMembers.add(group.id, AccessLevel.DEVELOPER, { userId: dev.id });
    projectId = ((await admin.Projects.create({ name: 'Service', namespaceId: group.id, initializeWithReadme: true })) as unknown as { id: number }).id;
    milestone = (await admin.GroupMilestones.create(group.id, 'Q1')) as unknown as { id: number };
    await dev.api.Branches.create(projectId, 'feature', 'main');
    await dev.api.RepositoryFiles.create(projectId, 'feature.txt', 'feature', 'new\n', 'Add the feature');
    mr = (await dev.api.MergeRequests.create(projectId, 'feature', 'main', 'Add the feature')) as unknown as typeof mr;
  });
  afterAll(() => server?.close());

  it('puts the merge request on the group milestone with an edit, recording a milestone event', async () => {
    const edited = await call('PUT', `/projects/${projectId}/merge_requests/${mr.iid}`, dev.token, { milestone_id: milestone.id, description: 'Ships in Q1' });
    expect(edited.body).toMatchObject({ iid: mr.iid, description: 'Ships in Q1', milestone: { id: milestone.id, title: 'Q1' } });

    const events = await call('GET', `/projects/${projectId}/merge_requests/${mr.iid}/resource_milestone_events`, dev.token);
    expect(events.body).toHaveLength(1);
    const event = await call('GET', `/projects/${projectId}/merge_requests/${mr.iid}/resource_milestone_events/${events.body[0].id}`, dev.token);
    expect(event.body).toMatchObject({ action: 'add', resource_type: 'MergeRequest', resource_id: mr.id, milestone: { id: milestone.id } });
  });

  it("lists the merge request in the group's list, the milestone itself and its issues", async () => {
    expect((await dev.api.MergeRequests.all({ groupId: group.id })).map((m) => m.iid)).toEqual([mr.iid]);
    expect(await dev.api.GroupMilestones.show(group.id, milestone.id)).toMatchObject({ id: milestone.id, title: 'Q1', group_id: group.id });
    const issue = await dev.api.Issues.create(projectId, 'Release notes', { milestoneId: milestone.id });
    const issues = await call('GET', `/groups/${group.id}/milestones/${milestone.id}/issues`, dev.token);
    expect(issues.body.map((i: { id: number }) => i.id)).toEqual([issue.id]);
    // gitbeaker's own call for the milestone's merge requests, and the same list through the group.
    const planned = await dev.api.GroupMilestones.allAssignedMergeRequests(group.id, milestone.id);
    expect(planned.map((m) => [m.iid, m.project_id])).toEqual([[mr.iid, projectId]]);
    const inGroup = await call('GET', `/groups/${group.id}/milestones/${milestone.id}/merge_requests`, dev.token);
    expect(inGroup.body).toMatchObject([{ id: mr.id, milestone: { id: milestone.id } }]);
    const other = (await admin.GroupMilestones.create(group.id, 'Q2')) as unknown as { id: number };
    expect((await call('GET', `/groups/${group.id}/milestones/${other.id}/merge_requests`, dev.token)).body).toEqual([]);
  });

  it('keeps the diff versions of the merge request', async () => {
    const versions = await call('GET', `/projects/${projectId}/merge_requests/${mr.iid}/versions`, dev.token);
    expect(versions.body).toHaveLength(1);
    const version = await call('GET', `/projects/${projectId}/merge_requests/${mr.iid}/versions/${versions.body[0].id}`, dev.token);
    expect(version.body).toMatchObject({ id: versions.body[0].id, state: 'collected' });
    expect(version.body.diffs.map((diff: { new_path: string }) => diff.new_path)).toEqual(['feature.txt']);
  });

  it('lets only an owner delete the merge request', async () => {
    expect(await failureOf(dev.api.MergeRequests.remove(projectId, mr.iid))).toMatchObject({ status: 403 });
    await admin.MergeRequests.remove(projectId, mr.iid);
    expect(await failureOf(admin.MergeRequests.show(projectId, mr.iid))).toMatchObject({ status: 404 });
  });
});
