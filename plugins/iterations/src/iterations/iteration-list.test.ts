import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { iterationsPlugin } from '../plugin.js';
import { day, manualCadence, manualIteration } from '../testing/fixtures.js';

type Listed = { title: string; state: number };
const titles = (body: Listed[]) => body.map((iteration) => iteration.title);

describe('GET /groups/:id/iterations and /projects/:id/iterations', () => {
  let app: TestApp;
  let sub: { id: number; full_path: string };
  let subProject: number;
  const groupList = (id: number | string) => `/api/v4/groups/${encodeURIComponent(String(id))}/iterations`;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [iterationsPlugin] });
    const top = await manualCadence(app, app.group.id, 'Team cadence');
    await manualIteration(app, app.group.id, top, { title: 'Later', start_date: day(20), due_date: day(26) });
    await manualIteration(app, app.group.id, top, { title: 'Past Alpha', start_date: day(-20), due_date: day(-10) });
    await manualIteration(app, app.group.id, top, { title: 'Now Beta', start_date: day(-2), due_date: day(2) });
    await manualIteration(app, app.group.id, top, { title: 'Next Gamma', start_date: day(5), due_date: day(9) });
    sub = (await app.post('/api/v4/groups', { name: 'Sub', path: 'sub', parent_id: app.group.id }, { token: 'owner' })).body;
    const subCadence = await manualCadence(app, sub.id, 'Sub cadence');
    await manualIteration(app, sub.id, subCadence, { title: 'Sub one', start_date: day(3), due_date: day(4) });
    subProject = (await app.post('/api/v4/projects', { name: 'Inner', path: 'inner', namespace_id: sub.id }, { token: 'owner' })).body.id;
  });
  afterAll(() => app?.close());

  it('lists all states by default, by due date, with integer states', async () => {
    const res = await app.get(groupList(app.group.id), { token: 'guest' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).toBe('4');
    expect(res.body.map((i: Listed) => [i.title, i.state])).toEqual([
      ['Past Alpha', 3],
      ['Now Beta', 2],
      ['Next Gamma', 1],
      ['Later', 1],
    ]);
  });

  it('filters by state, started being current', async () => {
    const byState = async (state: string) => titles((await app.get(groupList(app.group.id), { token: 'guest', query: { state } })).body);
    expect(await byState('opened')).toEqual(['Now Beta', 'Next Gamma', 'Later']);
    expect(await byState('upcoming')).toEqual(['Next Gamma', 'Later']);
    expect(await byState('current')).toEqual(['Now Beta']);
    expect(await byState('started')).toEqual(['Now Beta']);
    expect(await byState('closed')).toEqual(['Past Alpha']);
    expect(await byState('all')).toHaveLength(4);
  });

  it('refuses unknown states and search fields', async () => {
    const state = await app.get(groupList(app.group.id), { token: 'guest', query: { state: 'active' } });
    expect(state.status).toBe(400);
    expect(state.body).toEqual({ error: 'state does not have a valid value' });
    const field = await app.get(groupList(app.group.id), { token: 'guest', query: { search: 'a', in: 'description' } });
    expect(field.status).toBe(400);
    expect(field.body).toEqual({ error: 'in does not have a valid value' });
    expect((await app.get(groupList(app.group.id), { token: 'guest', query: { in: ['title', 'bogus'] } })).body).toEqual({
      error: 'in does not have a valid value',
    });
    expect((await app.get(groupList(app.group.id), { token: 'guest', query: { include_ancestors: 'maybe' } })).body).toEqual({
      error: 'include_ancestors is invalid',
    });
    expect((await app.get(groupList(app.group.id), { token: 'guest', query: { updated_after: 'yesterday' } })).body).toEqual({
      error: 'updated_after is invalid',
    });
  });

  it('searches titles, and cadence titles when asked', async () => {
    const search = async (query: Record<string, string | string[]>) => titles((await app.get(groupList(app.group.id), { token: 'guest', query })).body);
    expect(await search({ search: 'ALPHA' })).toEqual(['Past Alpha']);
    expect(await search({ search: 'team' })).toEqual([]);
    expect(await search({ search: 'team', in: 'cadence_title' })).toHaveLength(4);
    expect(await search({ search: 'gamma', in: ['title', 'cadence_title'] })).toEqual(['Next Gamma']);
    expect(await search({ search: '%' })).toEqual([]);
    // GitLab's fuzzy search: every word of three or more characters, or the whole title when there are none.
    expect(await search({ search: 'beta now' })).toEqual(['Now Beta']);
    expect(await search({ search: 'beta later' })).toEqual([]);
    expect(await search({ search: 'Be' })).toEqual([]);
  });

  it('filters by update time', async () => {
    const list = async (query: Record<string, string>) => (await app.get(groupList(app.group.id), { token: 'guest', query })).body;
    expect(await list({ updated_after: new Date(Date.now() + 86_400_000).toISOString() })).toEqual([]);
    expect(await list({ updated_before: new Date(Date.now() + 86_400_000).toISOString() })).toHaveLength(4);
    expect(await list({ updated_before: '2000-01-01T00:00:00Z' })).toEqual([]);
  });

  it("includes ancestors' iterations unless asked not to, and descendants' when asked", async () => {
    const subList = (await app.get(groupList(sub.full_path), { token: 'guest' })).body;
    expect(titles(subList)).toEqual(['Past Alpha', 'Now Beta', 'Sub one', 'Next Gamma', 'Later']);
    const own = await app.get(groupList(sub.id), { token: 'guest', query: { include_ancestors: false } });
    expect(titles(own.body)).toEqual(['Sub one']);
    expect(own.body[0].web_url).toBe(`http://localhost/groups/test-group/sub/-/iterations/${own.body[0].id}`);
    expect(titles((await app.get(groupList(app.group.id), { token: 'guest', query: { include_descendants: true } })).body)).toContain('Sub one');
    expect(titles((await app.get(groupList(app.group.id), { token: 'guest', query: { include_descendants: false } })).body)).not.toContain('Sub one');
  });

  it('paginates', async () => {
    const res = await app.get(groupList(app.group.id), { token: 'guest', query: { per_page: 3, page: 2 } });
    expect(titles(res.body)).toEqual(['Later']);
    expect(res.headers.get('x-total')).toBe('4');
    expect(res.headers.get('x-page')).toBe('2');
  });

  it("lists a project's group iterations with its ancestors'", async () => {
    const res = await app.get(`/api/v4/projects/${subProject}/iterations`, { token: 'guest' });
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(['Past Alpha', 'Now Beta', 'Sub one', 'Next Gamma', 'Later']);
    const own = await app.get(`/api/v4/projects/${encodeURIComponent('test-group/sub/inner')}/iterations`, {
      token: 'guest',
      query: { include_ancestors: false, state: 'upcoming' },
    });
    expect(titles(own.body)).toEqual(['Sub one']);
  });

  it('lists nothing for a personal project', async () => {
    const personal = await app.post('/api/v4/projects', { name: 'Mine', path: 'mine' }, { token: 'developer' });
    const res = await app.get(`/api/v4/projects/${personal.body.id}/iterations`, { token: 'developer' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('answers 404 for groups and projects the caller cannot see, anonymous included', async () => {
    for (const token of ['nonMember', null]) {
      const group = await app.get(groupList(app.group.id), { token });
      expect(group.status).toBe(404);
      expect(group.body).toEqual({ message: '404 Group Not Found' });
      const project = await app.get(`/api/v4/projects/${app.project.id}/iterations`, { token });
      expect(project.status).toBe(404);
      expect(project.body).toEqual({ message: '404 Project Not Found' });
    }
    expect((await app.get(groupList(999_999), { token: 'admin' })).body).toEqual({ message: '404 Group Not Found' });
  });

  it('serves anonymous callers on a public group', async () => {
    const open = await app.post('/api/v4/groups', { name: 'Open', path: 'open', visibility: 'public' }, { token: 'owner' });
    expect(open.status).toBe(201);
    const cadence = await manualCadence(app, open.body.id, 'Open cadence');
    await manualIteration(app, open.body.id, cadence, { title: 'Public one', start_date: day(1), due_date: day(2) });
    const res = await app.get(groupList('open'), { token: null });
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(['Public one']);

    // A private subgroup's iterations stay out of a descendants list for callers who cannot see it.
    const hidden = await app.post('/api/v4/groups', { name: 'Hidden', path: 'hidden', parent_id: open.body.id, visibility: 'private' }, { token: 'owner' });
    const hiddenCadence = await manualCadence(app, hidden.body.id, 'Hidden cadence');
    await manualIteration(app, hidden.body.id, hiddenCadence, { title: 'Hidden one', start_date: day(1), due_date: day(2) });
    const descendants = { include_descendants: true };
    expect(titles((await app.get(groupList('open'), { token: null, query: descendants })).body)).toEqual(['Public one']);
    expect(titles((await app.get(groupList('open'), { token: 'owner', query: descendants })).body)).toEqual(['Hidden one', 'Public one']);

    // Same due date: by title, untitled last.
    await manualIteration(app, open.body.id, cadence, { start_date: day(-1), due_date: day(0) });
    await manualIteration(app, open.body.id, await manualCadence(app, open.body.id, 'Second'), { start_date: day(2), due_date: day(2) });
    await manualIteration(app, open.body.id, await manualCadence(app, open.body.id, 'Third'), { title: 'Also', start_date: day(2), due_date: day(2) });
    expect(titles((await app.get(groupList('open'), { token: null })).body)).toEqual([null, 'Also', 'Public one', null]);
  });

  it('removes the cadences and iterations of a deleted group', async () => {
    const doomed = await app.post('/api/v4/groups', { name: 'Doomed', path: 'doomed' }, { token: 'owner' });
    const cadence = await manualCadence(app, doomed.body.id, 'Doomed cadence');
    const iteration = await manualIteration(app, doomed.body.id, cadence, { title: 'Doomed one', start_date: day(1), due_date: day(2) });
    expect((await app.delete(`/api/v4/groups/${doomed.body.id}`, { token: 'owner' })).status).toBe(202);
    const { iterationsServiceRef } = await import('../contracts.js');
    expect(await app.kernel.resolve(iterationsServiceRef).byIds([iteration.id])).toEqual([]);
    const cadences = await app.kernel.resolve((await import('../contracts.js')).iterationCadencesServiceRef).list(doomed.body.id);
    expect(cadences).toEqual([]);
  });
});
