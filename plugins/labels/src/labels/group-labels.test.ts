import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { LabelEntity } from '../entities/label.js';
import { LabelSubscriptionEntity } from '../entities/label-subscription.js';
import { labelsPlugin } from '../plugin.js';

describe('group labels', () => {
  let app: TestApp;
  let base: string;
  let subgroup: { id: number; full_path: string };
  const labelsOf = (groupId: number | string) => `/api/v4/groups/${encodeURIComponent(String(groupId))}/labels`;
  const names = (body: { name: string }[]) => body.map((label) => label.name);

  beforeAll(async () => {
    app = await createTestApp({ plugins: [labelsPlugin] });
    base = labelsOf(app.group.id);
    const res = await app.post('/api/v4/groups', { name: 'Sub', path: 'sub', parent_id: app.group.id }, { token: 'owner' });
    expect(res.status).toBe(201);
    subgroup = res.body;
  });
  afterAll(() => app?.close());

  it('creates a label with its derived fields and shows it by id and by title', async () => {
    const created = await app.post(base, { name: ' bug ', color: '#FFAABB', description: 'Something **broke**' }, { token: 'reporter' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'bug',
      color: '#FFAABB',
      description: 'Something **broke**',
      description_html: '<p>Something <strong>broke</strong></p>',
      text_color: '#333333',
      archived: false,
      subscribed: false,
    });
    expect((await app.get(`${base}/${created.body.id}`, { token: 'guest' })).body).toEqual(created.body);
    expect((await app.get(`${base}/bug`, { token: 'guest' })).body).toEqual(created.body);
  });

  it('converts CSS colour names and picks white text on dark colours', async () => {
    const res = await app.post(base, { name: 'navy', color: 'Navy' }, { token: 'owner' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ color: '#000080', text_color: '#FFFFFF', description: null, description_html: '' });
    expect((await app.post(base, { name: 'short', color: '#fff' }, { token: 'owner' })).body).toMatchObject({ color: '#fff', text_color: '#333333' });
  });

  it('refuses a title the group or an ancestor already has with 409', async () => {
    const res = await app.post(base, { name: 'bug', color: '#000000' }, { token: 'owner' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Label already exists' });
    const inSubgroup = await app.post(labelsOf(subgroup.id), { name: 'bug', color: '#000000' }, { token: 'owner' });
    expect(inSubgroup.status).toBe(409);
    expect(inSubgroup.body).toEqual({ message: 'Label already exists' });
  });

  it('validates the parameters and the model with GitLab texts', async () => {
    const missing = await app.post(base, {}, { token: 'owner' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'name is missing, color is missing' });
    const badColor = await app.post(base, { name: 'x', color: 'not-a-colour' }, { token: 'owner' });
    expect(badColor.status).toBe(400);
    expect(badColor.body).toEqual({ message: { color: ['must be a valid color code'] } });
    const comma = await app.post(base, { name: 'a,b', color: '#123456' }, { token: 'owner' });
    expect(comma.body).toEqual({ message: { title: ['is invalid'] } });
    const blank = await app.post(base, { name: '  ', color: '#123456' }, { token: 'owner' });
    expect(blank.status).toBe(400);
    expect(blank.body).toEqual({ message: { title: ["can't be blank", 'is invalid'] } });
    const long = await app.post(base, { name: 'x'.repeat(256), color: '#123456' }, { token: 'owner' });
    expect(long.body).toEqual({ message: { title: ['is too long (maximum is 255 characters)'] } });
    const update = await app.put(`${base}/bug`, {}, { token: 'owner' });
    expect(update.status).toBe(400);
    expect(update.body).toEqual({ error: 'new_name, color, description, archived are missing, at least one parameter must be provided' });
  });

  it('needs authentication, visibility and the reporter role', async () => {
    expect((await app.get(base, { token: null })).status).toBe(401);
    const hidden = await app.get(base, { token: 'nonMember' });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Group Not Found' });
    const guest = await app.post(base, { name: 'by-guest', color: '#123456' }, { token: 'guest' });
    expect(guest.status).toBe(403);
    expect(guest.body).toEqual({ message: '403 Forbidden' });
    expect((await app.put(`${base}/bug`, { color: '#000000' }, { token: 'guest' })).status).toBe(403);
    expect((await app.delete(`${base}/bug`, { token: 'guest' })).status).toBe(403);
    const unknown = await app.get(`${base}/nope`, { token: 'guest' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Label Not Found' });
  });

  it('lists by title with pagination headers, search and archived filters', async () => {
    await app.post(base, { name: 'archived-one', color: '#123456', archived: true, description: 'old stuff' }, { token: 'owner' });
    const res = await app.get(base, { token: 'guest', query: { per_page: 2 } });
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['archived-one', 'bug']);
    expect(res.headers.get('x-total')).toBe('4');
    expect(res.headers.get('x-next-page')).toBe('2');
    expect(res.headers.get('link')).toContain('rel="next"');
    expect(names((await app.get(base, { token: 'guest', query: { search: 'STUFF' } })).body)).toEqual(['archived-one']);
    expect(names((await app.get(base, { token: 'guest', query: { search: 'bu' } })).body)).toEqual(['bug']);
    expect(names((await app.get(base, { token: 'guest', query: { archived: true } })).body)).toEqual(['archived-one']);
    expect(names((await app.get(base, { token: 'guest', query: { archived: false } })).body)).toEqual(['bug', 'navy', 'short']);
    const counted = await app.get(base, { token: 'guest', query: { with_counts: true, search: 'bug' } });
    expect(counted.body[0]).toMatchObject({ open_issues_count: 0, closed_issues_count: 0, open_merge_requests_count: 0 });
    expect((await app.get(base, { token: 'guest', query: { search: 'bug' } })).body[0]).not.toHaveProperty('open_issues_count');
  });

  it('lists ancestor labels by default and descendant and project labels on request', async () => {
    const sub = labelsOf(subgroup.id);
    expect((await app.post(sub, { name: 'sub-label', color: '#123456' }, { token: 'owner' })).status).toBe(201);
    expect((await app.post(`/api/v4/projects/${app.project.id}/labels`, { name: 'project-label', color: '#123456' }, { token: 'owner' })).status).toBe(201);
    expect(names((await app.get(sub, { token: 'owner' })).body)).toEqual(['archived-one', 'bug', 'navy', 'short', 'sub-label']);
    expect(names((await app.get(sub, { token: 'owner', query: { include_ancestor_groups: false } })).body)).toEqual(['sub-label']);
    expect(names((await app.get(base, { token: 'owner', query: { include_descendant_groups: true } })).body)).toContain('sub-label');
    expect(names((await app.get(base, { token: 'owner', query: { include_descendant_groups: true } })).body)).not.toContain('project-label');
    expect(names((await app.get(base, { token: 'owner', query: { include_descendant_groups: true, only_group_labels: false } })).body)).toContain(
      'project-label',
    );
    expect((await app.get(`${base}/sub-label`, { token: 'owner' })).status).toBe(404);
    expect((await app.get(`${base}/sub-label`, { token: 'owner', query: { include_descendant_groups: true } })).status).toBe(200);
    expect((await app.get(`${sub}/bug`, { token: 'owner' })).status).toBe(200);
  });

  it('updates and deletes only the group own labels', async () => {
    const sub = labelsOf(subgroup.id);
    const ancestor = await app.put(`${sub}/bug`, { color: '#000000' }, { token: 'owner' });
    expect(ancestor.status).toBe(404);
    expect(ancestor.body).toEqual({ message: '404 Label Not Found' });
    expect((await app.delete(`${sub}/bug`, { token: 'owner' })).status).toBe(404);

    const updated = await app.put(`${base}/short`, { new_name: 'tall', color: 'white', description: 'd', archived: true }, { token: 'reporter' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'tall', color: '#FFFFFF', text_color: '#333333', description: 'd', archived: true });
    const taken = await app.put(`${base}/tall`, { new_name: 'bug' }, { token: 'owner' });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: { title: ['has already been taken'] } });
    const badColor = await app.put(`${base}/tall`, { color: '#12' }, { token: 'owner' });
    expect(badColor.body).toEqual({ message: { color: ['must be a valid color code'] } });
    expect((await app.get(`${base}/tall`, { token: 'owner' })).body.color).toBe('#FFFFFF');

    expect((await app.delete(`${base}/tall`, { token: 'reporter' })).status).toBe(204);
    expect((await app.get(`${base}/tall`, { token: 'owner' })).status).toBe(404);
  });

  it('finds a label by id before a label titled with that number', async () => {
    const first = await app.post(base, { name: 'first', color: '#123456' }, { token: 'owner' });
    const numeric = await app.post(base, { name: String(first.body.id), color: '#654321' }, { token: 'owner' });
    expect((await app.get(`${base}/${first.body.id}`, { token: 'owner' })).body.name).toBe('first');
    expect((await app.get(`${base}/${numeric.body.id}`, { token: 'owner' })).body.name).toBe(String(first.body.id));
    const spaced = await app.post(base, { name: 'needs: triage & more', color: '#654321' }, { token: 'owner' });
    expect((await app.get(`${base}/${encodeURIComponent('needs: triage & more')}`, { token: 'owner' })).body.id).toBe(spaced.body.id);
  });

  it('supports the deprecated PUT and DELETE with name', async () => {
    await app.post(base, { name: 'old-style', color: '#123456' }, { token: 'owner' });
    const neither = await app.put(base, { color: '#000000' }, { token: 'owner' });
    expect(neither.status).toBe(400);
    expect(neither.body).toEqual({ error: 'label_id, name are missing, exactly one parameter must be provided' });
    const updated = await app.put(base, { name: 'old-style', new_name: 'older-style' }, { token: 'owner' });
    expect(updated.status).toBe(200);
    expect(updated.body.name).toBe('older-style');
    const byId = await app.put(base, { label_id: updated.body.id, description: 'by id' }, { token: 'owner' });
    expect(byId.body.description).toBe('by id');
    const noName = await app.delete(base, { token: 'owner' });
    expect(noName.status).toBe(400);
    expect(noName.body).toEqual({ error: 'name is missing' });
    expect((await app.delete(base, { token: 'owner', query: { name: 'older-style' } })).status).toBe(204);
    expect((await app.delete(base, { token: 'owner', query: { name: 'older-style' } })).status).toBe(404);
  });

  it('subscribes with 201 and answers a repeat with 304 and no body', async () => {
    const subscribe = await app.post(`${base}/bug/subscribe`, undefined, { token: 'guest' });
    expect(subscribe.status).toBe(201);
    expect(subscribe.body).toMatchObject({ name: 'bug', subscribed: true });
    const again = await app.post(`${base}/bug/subscribe`, undefined, { token: 'guest' });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect((await app.get(`${base}/bug`, { token: 'guest' })).body.subscribed).toBe(true);
    expect((await app.get(`${base}/bug`, { token: 'reporter' })).body.subscribed).toBe(false);
    const listed = (await app.get(base, { token: 'guest', query: { search: 'bu' } })).body;
    expect(listed.map((label: { name: string; subscribed: boolean }) => [label.name, label.subscribed])).toEqual([['bug', true]]);
    expect((await app.get(base, { token: 'reporter', query: { search: 'bu' } })).body[0].subscribed).toBe(false);
    expect((await app.get(`/api/v4/projects/${app.project.id}/labels`, { token: 'guest', query: { search: 'bu' } })).body[0].subscribed).toBe(true);
    // The subscription holds in the projects below the group too.
    expect((await app.get(`/api/v4/projects/${app.project.id}/labels/bug`, { token: 'guest' })).body.subscribed).toBe(true);

    const unsubscribe = await app.post(`${base}/bug/unsubscribe`, undefined, { token: 'guest' });
    expect(unsubscribe.status).toBe(201);
    expect(unsubscribe.body.subscribed).toBe(false);
    const notSubscribed = await app.post(`${base}/bug/unsubscribe`, undefined, { token: 'guest' });
    expect(notSubscribed.status).toBe(304);
    expect(notSubscribed.text).toBe('');
    expect((await app.post(`${base}/nope/subscribe`, undefined, { token: 'guest' })).status).toBe(404);
  });

  it('answers 412 to a delete with a stale If-Unmodified-Since', async () => {
    await app.post(base, { name: 'conditional', color: '#123456' }, { token: 'owner' });
    const stale = await app.delete(`${base}/conditional`, { token: 'owner', headers: { 'If-Unmodified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' } });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ message: '412 Precondition Failed' });
    expect((await app.get(`${base}/conditional`, { token: 'owner' })).status).toBe(200);
  });

  it('strips markup from the stored description and sanitises the rendered one', async () => {
    const res = await app.post(
      base,
      { name: 'hostile', color: '#123456', description: '<script>alert(1)</script>[x](javascript:alert(1)) <b>ok</b>' },
      { token: 'owner' },
    );
    expect(res.status).toBe(201);
    expect(res.body.description).toBe('[x](javascript:alert(1)) ok');
    expect(res.body.description_html).not.toMatch(/<script|href="javascript/);
    expect(res.body.description_html).toContain('ok');
  });

  it("removes a deleted user's subscriptions", async () => {
    const user = await app.post(
      '/api/v4/users',
      { username: 'leaving', name: 'Leaving', email: 'leaving@example.com', password: 'Leaving-Secret-123' },
      { token: 'admin' },
    );
    expect(user.status).toBe(201);
    await app.post(`/api/v4/groups/${app.group.id}/members`, { user_id: user.body.id, access_level: 10 }, { token: 'owner' });
    const label = await app.get(`${base}/bug`, { token: 'owner' });
    const { database } = app.kernel;
    await database.insert(LabelSubscriptionEntity, { labelId: label.body.id, userId: user.body.id, projectId: 0, createdAt: new Date() });
    expect((await app.delete(`/api/v4/users/${user.body.id}`, { token: 'admin' })).status).toBeLessThan(300);
    expect(await database.rows(database.from(LabelSubscriptionEntity).where('userId', user.body.id))).toEqual([]);
  });

  it('removes the labels of a deleted group', async () => {
    const group = await app.post('/api/v4/groups', { name: 'Doomed', path: 'doomed', parent_id: app.group.id }, { token: 'owner' });
    const label = await app.post(labelsOf(group.body.id), { name: 'doomed-label', color: '#123456' }, { token: 'owner' });
    await app.post(`${labelsOf(group.body.id)}/doomed-label/subscribe`, undefined, { token: 'owner' });
    expect((await app.delete(`/api/v4/groups/${group.body.id}`, { token: 'owner' })).status).toBeLessThan(300);
    const { database } = app.kernel;
    expect(await database.rows(database.from(LabelEntity).where('id', label.body.id))).toEqual([]);
    expect(await database.rows(database.from(LabelSubscriptionEntity).where('labelId', label.body.id))).toEqual([]);
  });
});
