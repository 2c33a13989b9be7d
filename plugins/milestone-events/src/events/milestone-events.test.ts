import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin, kernelServices, notFound } from '@forgekit/kernel';
import { coreAccessRef } from '@forgekit/plugin-core/contracts';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { milestoneEventsServiceRef } from '../contracts.js';
import { milestoneEventsPlugin } from '../plugin.js';

/** Issue #1 of any project is the resource with global id 500 + project id; other iids are missing. */
const fakeIssues = definePlugin({
  id: 'fake-issues',
  compatibility: '^0.1.0',
  requires: [coreAccessRef, milestoneEventsServiceRef],
  register(ctx) {
    const access = ctx.resolve(coreAccessRef);
    ctx.resolve(milestoneEventsServiceRef).registerResource('Issue', async (user, projectIdOrPath, iid) => {
      const { project } = await access.requireProject(user, projectIdOrPath);
      if (iid !== '1') throw notFound('Issue');
      return { id: 500 + project.id, projectId: project.id };
    });
    ctx.resolve(milestoneEventsServiceRef).registerResource('MergeRequest', async (user, projectIdOrPath, iid) => {
      const { project } = await access.requireProject(user, projectIdOrPath);
      if (iid !== '7') throw notFound('Merge Request');
      return { id: 700, projectId: project.id };
    });
  },
});

describe('resource milestone events', () => {
  let app: TestApp;
  let base: string;
  let first: { id: number; iid: number; title: string };
  let second: { id: number };
  let hidden: { id: number };
  const record = (from: number | null, to: number | null, state = 'opened') =>
    app.kernel
      .resolve(milestoneEventsServiceRef)
      .record({ resourceType: 'Issue', resourceId: 500 + app.project.id, projectId: app.project.id, userId: app.users.developer.id, from, to, state });

  beforeAll(async () => {
    app = await createTestApp({ plugins: [milestonesPlugin, milestoneEventsPlugin, fakeIssues] });
    base = `/api/v4/projects/${app.project.id}/issues/1/resource_milestone_events`;
    const milestones = `/api/v4/projects/${app.project.id}/milestones`;
    first = (await app.post(milestones, { title: 'first' }, { token: 'maintainer' })).body;
    second = (await app.post(milestones, { title: 'second' }, { token: 'maintainer' })).body;
    const group = await app.post('/api/v4/groups', { name: 'Hidden', path: 'hidden-group', visibility: 'private' }, { token: 'admin' });
    hidden = (await app.post(`/api/v4/groups/${group.body.id}/milestones`, { title: 'hidden' }, { token: 'admin' })).body;

    await record(null, first.id);
    await record(first.id, second.id);
    await record(second.id, second.id);
    await record(second.id, hidden.id, 'closed');
  });
  afterAll(() => app?.close());

  it('lists the events oldest first, one remove and one add per change', async () => {
    const res = await app.get(base, { token: 'admin' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).toBe('5');
    expect(res.body.map((event: { action: string; milestone: { id: number } }) => [event.action, event.milestone.id])).toEqual([
      ['add', first.id],
      ['remove', first.id],
      ['add', second.id],
      ['remove', second.id],
      ['add', hidden.id],
    ]);
    const ids = res.body.map((event: { id: number }) => event.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('shows GitLab fields: the global resource id, the user, the milestone and the state', async () => {
    const [event] = (await app.get(base, { token: 'guest' })).body;
    expect(event).toEqual({
      id: expect.any(Number),
      user: {
        id: app.users.developer.id,
        username: 'developer',
        public_email: null,
        name: 'Developer User',
        state: 'active',
        locked: false,
        avatar_url: null,
        web_url: 'http://localhost/developer',
      },
      created_at: expect.any(String),
      resource_type: 'Issue',
      resource_id: 500 + app.project.id,
      milestone: expect.objectContaining({ id: first.id, iid: first.iid, project_id: app.project.id, title: 'first', state: 'active' }),
      action: 'add',
      state: 'opened',
    });
    const one = await app.get(`${base}/${event.id}`, { token: 'guest' });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(event);
  });

  it('leaves out events of milestones the caller cannot read, and counts only the rest', async () => {
    const res = await app.get(base, { token: 'guest', query: { per_page: 2 } });
    expect(res.headers.get('x-total')).toBe('4');
    expect(res.body).toHaveLength(2);
    const all = (await app.get(base, { token: 'admin' })).body;
    const hiddenEvent = all.find((event: { milestone: { id: number } }) => event.milestone.id === hidden.id);
    expect((await app.get(`${base}/${hiddenEvent.id}`, { token: 'guest' })).body).toEqual({ message: '404 ResourceMilestoneEvent Not Found' });
    expect((await app.get(`${base}/${hiddenEvent.id}`, { token: 'admin' })).status).toBe(200);
  });

  it('answers GitLab 404s and 401', async () => {
    expect((await app.get(`${base}/999999`, { token: 'guest' })).body).toEqual({ message: '404 Not found' });
    expect((await app.get(`${base}/abc`, { token: 'guest' })).body).toEqual({ message: '404 Not found' });
    expect((await app.get(base.replace('/issues/1/', '/issues/2/'), { token: 'guest' })).body).toEqual({ message: '404 Issue Not Found' });
    expect((await app.get(base, { token: 'nonMember' })).body).toEqual({ message: '404 Project Not Found' });
    expect((await app.get(base, { token: null })).status).toBe(401);
    const mr = await app.get(`/api/v4/projects/${app.project.id}/merge_requests/1/resource_milestone_events`, { token: 'guest' });
    expect(mr.body).toEqual({ message: '404 Merge Request Not Found' });
  });

  it("answers 401 with GitLab's body to anonymous callers, on a public project too", async () => {
    const unauthorized = { message: '401 Unauthorized' };
    const anonymous = await app.get(base, { token: null });
    expect([anonymous.status, anonymous.body]).toEqual([401, unauthorized]);
    const all = (await app.get(base, { token: 'admin' })).body;
    const one = await app.get(`${base}/${all[0].id}`, { token: null });
    expect([one.status, one.body]).toEqual([401, unauthorized]);
    const open = await app.post('/api/v4/projects', { name: 'Open events', visibility: 'public' }, { token: 'admin' });
    expect(open.status).toBe(201);
    const publicList = await app.get(`/api/v4/projects/${open.body.id}/issues/1/resource_milestone_events`, { token: null });
    expect([publicList.status, publicList.body]).toEqual([401, unauthorized]);
    const mr = await app.get(`/api/v4/projects/${open.body.id}/merge_requests/7/resource_milestone_events`, { token: null });
    expect([mr.status, mr.body]).toEqual([401, unauthorized]);
  });

  it('answers 404 Project Not Found for a project that does not exist or that a non-member cannot see', async () => {
    for (const path of ['/api/v4/projects/999999/issues/1/resource_milestone_events', '/api/v4/projects/999999/merge_requests/7/resource_milestone_events/1']) {
      const res = await app.get(path, { token: 'guest' });
      expect([res.status, res.body]).toEqual([404, { message: '404 Project Not Found' }]);
    }
    const all = (await app.get(base, { token: 'admin' })).body;
    const single = await app.get(`${base}/${all[0].id}`, { token: 'nonMember' });
    expect([single.status, single.body]).toEqual([404, { message: '404 Project Not Found' }]);
    const mr = await app.get(`/api/v4/projects/${app.project.id}/merge_requests/7/resource_milestone_events`, { token: 'nonMember' });
    expect([mr.status, mr.body]).toEqual([404, { message: '404 Project Not Found' }]);
  });

  it('answers 404 Not found for an event of another resource, and for a missing one under a merge request', async () => {
    const all = (await app.get(base, { token: 'admin' })).body;
    const mrBase = `/api/v4/projects/${app.project.id}/merge_requests/7/resource_milestone_events`;
    const elsewhere = await app.get(`${mrBase}/${all[0].id}`, { token: 'guest' });
    expect([elsewhere.status, elsewhere.body]).toEqual([404, { message: '404 Not found' }]);
    const missing = await app.get(`${mrBase}/999999`, { token: 'guest' });
    expect([missing.status, missing.body]).toEqual([404, { message: '404 Not found' }]);
    const otherIssue = await app.get(`${base.replace('/issues/1/', '/issues/2/')}/${all[0].id}`, { token: 'guest' });
    expect([otherIssue.status, otherIssue.body]).toEqual([404, { message: '404 Issue Not Found' }]);
  });

  it('serves merge request events through their own resolver', async () => {
    await app.kernel.resolve(milestoneEventsServiceRef).record({
      resourceType: 'MergeRequest',
      resourceId: 700,
      projectId: app.project.id,
      userId: app.users.maintainer.id,
      from: null,
      to: second.id,
      state: 'merged',
    });
    const res = await app.get(`/api/v4/projects/${app.project.id}/merge_requests/7/resource_milestone_events`, { token: 'guest' });
    expect(res.body).toEqual([
      expect.objectContaining({
        resource_type: 'MergeRequest',
        resource_id: 700,
        action: 'add',
        state: 'merged',
        user: expect.objectContaining({ username: 'maintainer' }),
      }),
    ]);
    expect((await app.get(base, { token: 'admin' })).body.map((event: { resource_type: string }) => event.resource_type)).not.toContain('MergeRequest');
  });

  it("records in the caller's transaction", async () => {
    const database = app.kernel.resolve(kernelServices.database);
    const before = (await app.get(base, { token: 'admin' })).body.length;
    await expect(
      database.transaction(async (tx) => {
        await app.kernel.resolve(milestoneEventsServiceRef).record({
          resourceType: 'Issue',
          resourceId: 500 + app.project.id,
          projectId: app.project.id,
          userId: app.users.developer.id,
          from: null,
          to: first.id,
          state: 'opened',
          tx,
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await app.get(base, { token: 'admin' })).body).toHaveLength(before);
  });

  it('removes the events of a deleted milestone and of a removed resource', async () => {
    expect((await app.delete(`/api/v4/projects/${app.project.id}/milestones/${first.id}`, { token: 'maintainer' })).status).toBe(204);
    const left = (await app.get(base, { token: 'admin' })).body as { milestone: { id: number } }[];
    expect(left.map((event) => event.milestone.id)).not.toContain(first.id);
    expect(left.length).toBeGreaterThan(0);
    await app.kernel.resolve(milestoneEventsServiceRef).removeAllFor('Issue', 500 + app.project.id);
    expect((await app.get(base, { token: 'admin' })).body).toEqual([]);
  });
});
