import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin, kernelServices, type EventDescriptor } from '@forgekit/kernel';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { milestoneLifecycle, milestonesServiceRef, type MilestoneItemsQuery, type MilestonesService } from '../contracts.js';
import { MilestoneEntity } from '../entities/milestone.js';
import { milestonesPlugin } from '../plugin.js';
import { milestoneSchema } from './milestone-schemas.js';

const heard: { name: string; payload: unknown }[] = [];
const seenQueries: MilestoneItemsQuery[] = [];

/** Stands in for the issues plugin: lists issues of a milestone and listens to milestone events. */
const fakeIssues = definePlugin({
  id: 'fake-issues',
  compatibility: '^0.1.0',
  requires: [milestonesServiceRef],
  register(ctx) {
    ctx.resolve(milestonesServiceRef).registerItems('issues', async (query) => {
      seenQueries.push(query);
      return { items: [{ id: 1, iid: 1, title: 'an issue' }], total: 7 };
    });
    for (const [name, descriptor] of Object.entries(milestoneLifecycle)) {
      ctx.events.on(descriptor as EventDescriptor<unknown>, (payload) => {
        heard.push({ name, payload });
      });
    }
  },
});

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('the milestones service', () => {
  let app: TestApp;
  let service: MilestonesService;
  let projectBase: string;
  let groupBase: string;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [milestonesPlugin, fakeIssues] });
    service = app.kernel.resolve(milestonesServiceRef);
    projectBase = `/api/v4/projects/${app.project.id}/milestones`;
    groupBase = `/api/v4/groups/${app.group.id}/milestones`;
  });
  afterAll(() => app?.close());

  it("finds the project's milestones and its groups' for an issue, and no others", async () => {
    const own = (await app.post(projectBase, { title: 'own' }, { token: 'reporter' })).body;
    const group = (await app.post(groupBase, { title: 'from group' }, { token: 'reporter' })).body;
    const elsewhere = await app.post('/api/v4/groups', { name: 'Else', path: 'else' }, { token: 'admin' });
    const foreign = (await app.post(`/api/v4/groups/${elsewhere.body.id}/milestones`, { title: 'foreign' }, { token: 'admin' })).body;

    expect(await service.forProject(app.project.id, own.id)).toMatchObject({ id: own.id, projectId: app.project.id, groupId: null, webUrl: own.web_url });
    expect(await service.forProject(app.project.id, group.id)).toMatchObject({ id: group.id, groupId: app.group.id });
    expect(await service.forProject(app.project.id, foreign.id)).toBeNull();
    expect(await service.forProject(app.project.id, 999999)).toBeNull();

    const found = await service.byIds([group.id, own.id, 999999]);
    expect(found.map((m) => m.id).sort()).toEqual([own.id, group.id].sort());
    expect(service.entity(found.find((m) => m.id === own.id)!)).toEqual({ ...own, created_at: new Date(own.created_at), updated_at: new Date(own.updated_at) });

    const nonMember = { id: app.users.nonMember.id, username: 'non-member', name: 'x', isAdmin: false, external: false, state: 'active' };
    const guest = { ...nonMember, id: app.users.guest.id };
    expect(await service.canRead(guest, found[0]!)).toBe(true);
    expect(await service.canRead(nonMember, found[0]!)).toBe(false);
    expect(await service.canRead(null, found[0]!)).toBe(false);
  });

  it('resolves Upcoming, Started and titles as GitLab does', async () => {
    const make = async (title: string, dates: { start_date?: string; due_date?: string }) =>
      (await app.post(projectBase, { title, ...dates }, { token: 'reporter' })).body.id as number;
    const soon = await make('soon', { due_date: day(5) });
    await make('later', { due_date: day(30) });
    const started = await make('started', { start_date: day(-3), due_date: day(40) });
    const past = await make('past', { start_date: day(-30), due_date: day(-2) });
    const closed = await make('closed soon', { start_date: day(-1), due_date: day(1) });
    await app.put(`${projectBase}/${closed}`, { state_event: 'close' }, { token: 'reporter' });
    const groupSoon = (await app.post(groupBase, { title: 'group soon', due_date: day(10) }, { token: 'reporter' })).body.id;

    const scope = { projectIds: [app.project.id], groupIds: [app.group.id] };
    expect(await service.idsForFilter(scope, 'Upcoming')).toEqual([soon, groupSoon]);
    expect(await service.idsForFilter({ projectIds: [app.project.id], groupIds: [] }, 'Upcoming')).toEqual([soon]);
    expect(await service.idsForFilter(scope, 'Started')).toEqual([started, past]);
    expect(await service.idsForFilter(scope, { title: 'soon' })).toEqual([soon]);
    expect(await service.idsForFilter({ projectIds: [], groupIds: [] }, { title: 'soon' })).toEqual([]);
  });

  it('serves a milestone’s issues from the registered lister', async () => {
    const milestone = (await app.post(projectBase, { title: 'with issues' }, { token: 'reporter' })).body;
    const res = await app.get(`${projectBase}/${milestone.id}/issues`, { token: 'guest', query: { per_page: 1, page: 2 } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: 1, iid: 1, title: 'an issue' }]);
    expect(res.headers.get('x-total')).toBe('7');
    const query = seenQueries.at(-1)!;
    // The lister gets the caller's access to the project, as the route found it.
    expect(query).toMatchObject({ parent: { kind: 'project', access: { project: { id: app.project.id } } }, perPage: 1, offset: 1 });
    expect(query.milestone.id).toBe(milestone.id);
    expect(query.user.id).toBe(app.users.guest.id);
    expect((await app.get(`${projectBase}/${milestone.id}/merge_requests`, { token: 'guest' })).body).toEqual([]);
  });

  it('announces created, updated with changes, closed, reopened and deleted', async () => {
    heard.length = 0;
    const milestone = (await app.post(projectBase, { title: 'announced' }, { token: 'reporter' })).body;
    await app.put(`${projectBase}/${milestone.id}`, { title: 'renamed', state_event: 'close' }, { token: 'reporter' });
    await app.put(`${projectBase}/${milestone.id}`, { state_event: 'activate' }, { token: 'reporter' });
    await app.delete(`${projectBase}/${milestone.id}`, { token: 'reporter' });
    const who = { milestoneId: milestone.id, projectId: app.project.id, groupId: null, userId: app.users.reporter.id, milestone: expect.any(Object) };
    expect(heard).toEqual([
      { name: 'created', payload: who },
      {
        name: 'updated',
        payload: { ...who, changes: { title: { previous: 'announced', current: 'renamed' }, state: { previous: 'active', current: 'closed' } } },
      },
      { name: 'closed', payload: who },
      { name: 'updated', payload: { ...who, changes: { state: { previous: 'closed', current: 'active' } } } },
      { name: 'reopened', payload: who },
      { name: 'deleted', payload: who },
    ]);
    const snapshots = heard.map(({ payload }) => (payload as { milestone: { title: string; state: string; webUrl: string } }).milestone);
    expect(snapshots.map((m) => [m.title, m.state])).toEqual([
      ['announced', 'active'],
      ['renamed', 'closed'],
      ['renamed', 'closed'],
      ['renamed', 'active'],
      ['renamed', 'active'],
      ['renamed', 'active'],
    ]);
    expect(snapshots.every((m) => m.webUrl === milestone.web_url)).toBe(true);
  });

  it('always has a web_url: a milestone whose project is gone is not answered, and the API description says a string', async () => {
    const now = new Date();
    const orphan = await app.kernel.resolve(kernelServices.database).insert(MilestoneEntity, {
      iid: 1,
      projectId: 999_999,
      groupId: null,
      title: 'orphan',
      description: null,
      state: 'active',
      dueDate: null,
      startDate: null,
      createdAt: now,
      updatedAt: now,
    });
    const own = (await app.post(projectBase, { title: 'beside an orphan' }, { token: 'reporter' })).body;
    const found = await service.byIds([orphan, own.id]);
    expect(found.map((milestone) => milestone.id)).toEqual([own.id]);
    expect(service.entity(found[0]!).web_url).toBe(`http://localhost/test-group/test-project/-/milestones/${own.iid}`);
    expect((milestoneSchema.properties as Record<string, unknown>).web_url).toEqual({ type: 'string' });
  });

  it("removes a deleted project's milestones", async () => {
    const project = await app.post('/api/v4/projects', { name: 'Doomed', path: 'doomed' }, { token: 'admin' });
    const milestone = (await app.post(`/api/v4/projects/${project.body.id}/milestones`, { title: 'doomed' }, { token: 'admin' })).body;
    expect((await app.delete(`/api/v4/projects/${project.body.id}`, { token: 'admin' })).status).toBe(202);
    expect(await service.byIds([milestone.id])).toEqual([]);
  });
});
