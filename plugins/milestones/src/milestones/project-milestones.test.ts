import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { milestonesPlugin } from '../plugin.js';

describe('project milestones', () => {
  let app: TestApp;
  let base: string;
  const item = (id: number | string) => `${base}/${id}`;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [milestonesPlugin] });
    base = `/api/v4/projects/${app.project.id}/milestones`;
  });
  afterAll(() => app?.close());

  it('creates, shows, lists, updates and deletes a milestone', async () => {
    const created = await app.post(base, { title: 'v1.0', description: 'First', start_date: '2030-01-01', due_date: '2030-02-01' }, { token: 'reporter' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      iid: 1,
      project_id: app.project.id,
      title: 'v1.0',
      description: 'First',
      state: 'active',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      due_date: '2030-02-01',
      start_date: '2030-01-01',
      expired: false,
      web_url: `http://localhost/test-group/test-project/-/milestones/1`,
    });
    expect(Object.keys(created.body)).toEqual([
      'id',
      'iid',
      'project_id',
      'title',
      'description',
      'state',
      'created_at',
      'updated_at',
      'due_date',
      'start_date',
      'expired',
      'web_url',
    ]);
    const id = created.body.id;
    expect((await app.get(item(id), { token: 'guest' })).body).toEqual(created.body);
    const list = await app.get(base, { token: 'guest' });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([created.body]);
    expect(list.headers.get('x-total')).toBe('1');

    const updated = await app.put(item(id), { title: 'v1.1', state_event: 'close' }, { token: 'reporter' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, title: 'v1.1', state: 'closed', description: 'First' });
    const reopened = await app.put(item(id), { state_event: 'activate' }, { token: 'reporter' });
    expect(reopened.body.state).toBe('active');

    expect((await app.delete(item(id), { token: 'reporter' })).status).toBe(204);
    expect((await app.get(item(id), { token: 'reporter' })).body).toEqual({ message: '404 Not found' });
  });

  it('numbers milestones per project', async () => {
    const a = await app.post(base, { title: 'iid-a' }, { token: 'maintainer' });
    const b = await app.post(base, { title: 'iid-b' }, { token: 'maintainer' });
    expect(b.body.iid).toBe(a.body.iid + 1);
  });

  it('gives concurrent creates distinct iids', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => app.post(base, { title: `race ${i}` }, { token: 'reporter' })));
    expect(results.map((res) => res.status)).toEqual(Array(6).fill(201));
    expect(new Set(results.map((res) => res.body.iid)).size).toBe(6);
  });

  it('lets one of concurrent creates with the same title through', async () => {
    const results = await Promise.all(Array.from({ length: 4 }, () => app.post(base, { title: 'same race' }, { token: 'reporter' })));
    expect(results.map((res) => res.status).sort()).toEqual([201, 400, 400, 400]);
    const refused = results.find((res) => res.status === 400)!;
    expect(refused.body).toEqual({ message: `Failed to create milestone {:title=>["already being used for another group or project milestone."]}` });
  });

  it('validates titles and dates with GitLab texts', async () => {
    const blank = await app.post(base, { title: '  ' }, { token: 'reporter' });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: `Failed to create milestone {:title=>["can't be blank"]}` });

    const missing = await app.post(base, {}, { token: 'reporter' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'title is missing' });

    const dates = await app.post(base, { title: 'dates', start_date: '2030-02-01', due_date: '2030-01-01' }, { token: 'reporter' });
    expect(dates.status).toBe(400);
    expect(dates.body).toEqual({ message: `Failed to create milestone {:due_date=>["must be greater than start date"]}` });

    const far = await app.post(base, { title: 'far', due_date: '10000-01-01' }, { token: 'reporter' });
    expect(far.body).toEqual({ message: `Failed to create milestone {:due_date=>["date must not be after 9999-12-31"]}` });

    await app.post(base, { title: 'taken' }, { token: 'reporter' });
    const taken = await app.post(base, { title: 'taken' }, { token: 'reporter' });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: `Failed to create milestone {:title=>["already being used for another group or project milestone."]}` });

    const long = await app.post(base, { title: 'x'.repeat(256) }, { token: 'reporter' });
    expect(long.body).toEqual({ message: `Failed to create milestone {:title=>["is too long (maximum is 255 characters)"]}` });
  });

  it('takes impossible dates as none and strips markup from titles', async () => {
    const res = await app.post(base, { title: '<b>bold</b> &amp; plain ', due_date: '2030-02-30' }, { token: 'reporter' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: 'bold & plain', due_date: null });
  });

  it('refuses an update that changes nothing declared, and reports update errors', async () => {
    const { body } = await app.post(base, { title: 'upd' }, { token: 'reporter' });
    const none = await app.put(item(body.id), {}, { token: 'reporter' });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'title, description, start_date, due_date, state_event are missing, at least one parameter must be provided' });
    const bad = await app.put(item(body.id), { start_date: '2031-01-02', due_date: '2031-01-01' }, { token: 'reporter' });
    expect(bad.body).toEqual({ message: `Failed to update milestone {:due_date=>["must be greater than start date"]}` });
    const state = await app.put(item(body.id), { state_event: 'reopen' }, { token: 'reporter' });
    expect(state.body).toEqual({ error: 'state_event does not have a valid value' });
  });

  it('filters the list', async () => {
    const closed = await app.post(base, { title: 'filter closed one', description: 'needle' }, { token: 'reporter' });
    await app.put(item(closed.body.id), { state_event: 'close' }, { token: 'reporter' });
    const open = await app.post(base, { title: 'filter open one', due_date: '2030-01-01' }, { token: 'reporter' });

    const titles = async (query: Record<string, string | number | (string | number)[]>) =>
      ((await app.get(base, { token: 'guest', query })).body as { title: string }[]).map((m) => m.title);
    expect(await titles({ state: 'closed' })).toEqual(['filter closed one']);
    expect(await titles({ title: 'filter open one' })).toEqual(['filter open one']);
    expect(await titles({ search: 'NEEDLE' })).toEqual(['filter closed one']);
    expect(await titles({ iids: [open.body.iid] })).toEqual(['filter open one']);
    expect(await titles({ iids: `${open.body.iid},${closed.body.iid}`, state: 'all' })).toHaveLength(2);
    expect(await titles({ updated_after: '2100-01-01T00:00:00Z' })).toEqual([]);
    expect((await app.get(base, { token: 'guest', query: { state: 'nope' } })).body).toEqual({ error: 'state does not have a valid value' });
    expect((await app.get(base, { token: 'guest', query: { updated_before: 'yesterday-ish' } })).body).toEqual({ error: 'updated_before is invalid' });
    expect((await app.get(base, { token: 'guest', query: { iids: ['x'] } })).body).toEqual({ error: 'iids is invalid' });
    const both = await app.get(base, { token: 'guest', query: { include_ancestors: true, include_parent_milestones: true } });
    expect(both.body).toEqual({ error: 'include_ancestors, include_parent_milestones are mutually exclusive' });
  });

  it('orders by due date, undated last, then newest first', async () => {
    const list = (await app.get(base, { token: 'guest', query: { per_page: 100 } })).body as { due_date: string | null; id: number }[];
    const dated = list.filter((m) => m.due_date !== null);
    expect(list.slice(0, dated.length)).toEqual(dated);
    const undated = list.slice(dated.length).map((m) => m.id);
    expect(undated).toEqual([...undated].sort((a, b) => b - a));
  });

  it('includes the group milestones with include_ancestors', async () => {
    const group = await app.post(`/api/v4/groups/${app.group.id}/milestones`, { title: 'group wide' }, { token: 'reporter' });
    expect(group.status).toBe(201);
    const own = (await app.get(base, { token: 'guest', query: { per_page: 100 } })).body as { id: number }[];
    expect(own.map((m) => m.id)).not.toContain(group.body.id);
    for (const flag of ['include_ancestors', 'include_parent_milestones']) {
      const all = (await app.get(base, { token: 'guest', query: { [flag]: true, per_page: 100 } })).body as { id: number }[];
      expect(all.map((m) => m.id)).toContain(group.body.id);
    }
    const taken = await app.post(base, { title: 'group wide' }, { token: 'reporter' });
    expect(taken.body).toEqual({ message: `Failed to create milestone {:title=>["already being used for another group or project milestone."]}` });
  });

  it('answers roles and visibility as GitLab does', async () => {
    expect((await app.post(base, { title: 'guest' }, { token: 'guest' })).status).toBe(403);
    expect((await app.get(base, { token: 'nonMember' })).body).toEqual({ message: '404 Project Not Found' });
    expect((await app.get(base, { token: null })).status).toBe(401);
    const { body } = await app.post(base, { title: 'roles' }, { token: 'reporter' });
    expect((await app.put(item(body.id), { title: 'x' }, { token: 'guest' })).body).toEqual({ message: '403 Forbidden' });
    expect((await app.delete(item(body.id), { token: 'guest' })).status).toBe(403);
    expect((await app.delete(item(body.id), { token: 'nonMember' })).body).toEqual({ message: '404 Project Not Found' });
  });

  it('keeps an archived project read-only', async () => {
    const project = await app.post('/api/v4/projects', { name: 'Archived', path: 'archived', namespace_id: app.group.id }, { token: 'owner' });
    const path = `/api/v4/projects/${project.body.id}/milestones`;
    const { body } = await app.post(path, { title: 'before' }, { token: 'owner' });
    expect((await app.post(`/api/v4/projects/${project.body.id}/archive`, {}, { token: 'owner' })).status).toBe(201);
    expect((await app.post(path, { title: 'after' }, { token: 'owner' })).body).toEqual({ message: '403 Forbidden' });
    expect((await app.put(`${path}/${body.id}`, { title: 'x' }, { token: 'admin' })).status).toBe(403);
    expect((await app.get(path, { token: 'reporter' })).body).toHaveLength(1);
  });

  it('answers 404 and 400 for unknown and malformed ids', async () => {
    expect((await app.get(item(999999), { token: 'guest' })).body).toEqual({ message: '404 Not found' });
    expect((await app.get(item(99999999999999), { token: 'guest' })).body).toEqual({ message: '404 Not found' });
    expect((await app.get(item('abc'), { token: 'guest' })).body).toEqual({ error: 'milestone_id is invalid' });
    expect((await app.put(item(999999), { title: 'x' }, { token: 'reporter' })).status).toBe(404);
    expect((await app.delete(item(999999), { token: 'reporter' })).status).toBe(404);
  });

  it('lists no issues until a plugin provides them', async () => {
    const { body } = await app.post(base, { title: 'items' }, { token: 'reporter' });
    const res = await app.get(`${item(body.id)}/issues`, { token: 'guest' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect((await app.get(`${item(999999)}/merge_requests`, { token: 'guest' })).status).toBe(404);
  });

  it('never gives a deleted milestone’s iid again', async () => {
    const highest = await app.post(base, { title: 'iid highest' }, { token: 'reporter' });
    expect(highest.status).toBe(201);
    expect((await app.delete(item(highest.body.id), { token: 'reporter' })).status).toBe(204);
    expect(await app.post(base, { title: 'iid after' }, { token: 'reporter' })).toMatchObject({ status: 201, body: { iid: highest.body.iid + 1 } });
  });
});
