import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { milestonesServiceRef } from '../contracts.js';
import { milestonesPlugin } from '../plugin.js';

describe('group milestones', () => {
  let app: TestApp;
  let base: string;
  const item = (id: number | string) => `${base}/${id}`;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [milestonesPlugin] });
    base = `/api/v4/groups/${app.group.id}/milestones`;
  });
  afterAll(() => app?.close());

  it('creates, shows, lists, updates and deletes a group milestone', async () => {
    const created = await app.post(base, { title: 'Q1', due_date: '2020-01-01' }, { token: 'reporter' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ iid: 1, group_id: app.group.id, title: 'Q1', state: 'active', expired: true });
    expect(created.body).not.toHaveProperty('project_id');
    expect(created.body.web_url).toBe('http://localhost/groups/test-group/-/milestones/1');
    const id = created.body.id;
    expect((await app.get(item(id), { token: 'guest' })).body).toEqual(created.body);
    expect((await app.get(base, { token: 'guest' })).body).toEqual([created.body]);
    expect((await app.get('/api/v4/groups/test-group/milestones', { token: 'guest' })).status).toBe(200);
    const updated = await app.put(item(id), { description: 'quarter', due_date: null }, { token: 'reporter' });
    expect(updated.body).toMatchObject({ description: 'quarter', due_date: null, expired: false });
    expect((await app.delete(item(id), { token: 'reporter' })).status).toBe(204);
    expect((await app.get(item(id), { token: 'guest' })).body).toEqual({ message: '404 Not found' });
  });

  it('keeps group titles apart from the titles of its own projects', async () => {
    await app.post(`/api/v4/projects/${app.project.id}/milestones`, { title: 'shared title' }, { token: 'reporter' });
    const taken = await app.post(base, { title: 'shared title' }, { token: 'reporter' });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: `Failed to create milestone {:title=>["already being used for another group or project milestone."]}` });
    const { body } = await app.post(base, { title: 'group own' }, { token: 'reporter' });
    const renamed = await app.put(item(body.id), { title: 'shared title' }, { token: 'reporter' });
    expect(renamed.body).toEqual({ message: `Failed to update milestone {:title=>["already being used for another group or project milestone."]}` });
    expect((await app.put(item(body.id), { title: 'group own' }, { token: 'reporter' })).status).toBe(200);
  });

  it('includes parent group milestones in a subgroup with include_ancestors', async () => {
    const sub = await app.post('/api/v4/groups', { name: 'Sub', path: 'sub', parent_id: app.group.id }, { token: 'owner' });
    expect(sub.status).toBe(201);
    const parentMilestone = (await app.post(base, { title: 'parent level' }, { token: 'reporter' })).body;
    const subBase = `/api/v4/groups/${sub.body.id}/milestones`;
    const own = (await app.post(subBase, { title: 'sub level' }, { token: 'reporter' })).body;
    expect(own.web_url).toBe('http://localhost/groups/test-group/sub/-/milestones/1');
    const ids = async (query: Record<string, string | boolean>) =>
      ((await app.get(subBase, { token: 'guest', query })).body as { id: number }[]).map((m) => m.id);
    expect(await ids({})).toEqual([own.id]);
    expect(await ids({ include_ancestors: true })).toEqual(expect.arrayContaining([own.id, parentMilestone.id]));
    expect(await ids({ include_parent_milestones: true })).toContain(parentMilestone.id);

    const project = await app.post('/api/v4/projects', { name: 'Below', path: 'below', namespace_id: sub.body.id }, { token: 'owner' });
    const projectMilestone = (await app.post(`/api/v4/projects/${project.body.id}/milestones`, { title: 'project level' }, { token: 'owner' })).body;
    const top = async (query: Record<string, string | boolean>, token = 'guest') =>
      ((await app.get(base, { token, query: { ...query, per_page: 100 } })).body as { id: number }[]).map((m) => m.id);
    expect(await top({})).not.toContain(own.id);
    expect(await top({ include_descendants: true })).toEqual(expect.arrayContaining([parentMilestone.id, own.id, projectMilestone.id]));
    const projectList = await app.get(`/api/v4/projects/${project.body.id}/milestones`, { token: 'owner', query: { include_descendants: true } });
    expect((projectList.body as { id: number }[]).map((m) => m.id)).toEqual([projectMilestone.id]);
  });

  it('answers roles and visibility as GitLab does', async () => {
    expect((await app.post(base, { title: 'guest try' }, { token: 'guest' })).body).toEqual({ message: '403 Forbidden' });
    expect((await app.get(base, { token: 'nonMember' })).body).toEqual({ message: '404 Group Not Found' });
    expect((await app.post(base, { title: 'x' }, { token: 'nonMember' })).body).toEqual({ message: '404 Group Not Found' });
    expect((await app.get('/api/v4/groups/999999/milestones', { token: 'admin' })).body).toEqual({ message: '404 Group Not Found' });
    expect((await app.get(base, { token: null })).status).toBe(401);
    expect((await app.post(base, { title: 'admin made' }, { token: 'admin' })).status).toBe(201);
  });

  it('removes the milestones of a deleted group', async () => {
    const group = await app.post('/api/v4/groups', { name: 'Gone', path: 'gone' }, { token: 'admin' });
    const milestone = (await app.post(`/api/v4/groups/${group.body.id}/milestones`, { title: 'gone' }, { token: 'admin' })).body;
    expect((await app.delete(`/api/v4/groups/${group.body.id}`, { token: 'admin' })).status).toBe(202);
    expect(await app.kernel.resolve(milestonesServiceRef).byIds([milestone.id])).toEqual([]);
  });
});
