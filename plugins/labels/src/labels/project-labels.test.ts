import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelEvents } from '../contracts.js';
import { LabelEntity } from '../entities/label.js';
import { LabelPriorityEntity } from '../entities/label-priority.js';
import { LabelSubscriptionEntity } from '../entities/label-subscription.js';
import { labelsPlugin } from '../plugin.js';

describe('project labels', () => {
  let app: TestApp;
  let base: string;
  let groupBase: string;
  const names = (body: { name: string }[]) => body.map((label) => label.name);

  beforeAll(async () => {
    app = await createTestApp({ plugins: [labelsPlugin] });
    base = `/api/v4/projects/${app.project.id}/labels`;
    groupBase = `/api/v4/groups/${app.group.id}/labels`;
    await app.post(groupBase, { name: 'group-label', color: '#123456' }, { token: 'owner' });
  });
  afterAll(() => app?.close());

  it('creates a project label with a priority and lists it with the group labels', async () => {
    const created = await app.post(base, { name: 'p1', color: 'orange', description: 'first', priority: 3 }, { token: 'reporter' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'p1',
      color: '#FFA500',
      description: 'first',
      description_html: '<p>first</p>',
      text_color: '#FFFFFF',
      archived: false,
      subscribed: false,
      priority: 3,
      is_project_label: true,
    });
    const list = await app.get(base, { token: 'guest' });
    expect(list.status).toBe(200);
    expect(names(list.body)).toEqual(['group-label', 'p1']);
    expect(list.body[0]).toMatchObject({ is_project_label: false, priority: null });
    // Without ancestors a project still sees its own group's labels.
    expect(names((await app.get(base, { token: 'guest', query: { include_ancestor_groups: false } })).body)).toEqual(['group-label', 'p1']);
    expect((await app.get(base, { token: 'guest', query: { with_counts: true } })).body[1]).toMatchObject({ open_issues_count: 0 });
    expect((await app.get(`/api/v4/projects/${encodeURIComponent('test-group/test-project')}/labels/p1`, { token: 'guest' })).status).toBe(200);
  });

  it('refuses a title the project or its groups already have', async () => {
    const res = await app.post(base, { name: 'group-label', color: '#123456' }, { token: 'owner' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Label already exists' });
    expect((await app.post(base, { name: 'p1', color: '#123456' }, { token: 'owner' })).status).toBe(409);
  });

  it('needs access to the project and the reporter role to write', async () => {
    expect((await app.get(base, { token: null })).status).toBe(401);
    const hidden = await app.get(base, { token: 'nonMember' });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
    expect((await app.post(base, { name: 'g', color: '#123456' }, { token: 'guest' })).status).toBe(403);
    expect((await app.put(`${base}/p1`, { priority: 1 }, { token: 'guest' })).status).toBe(403);
    expect((await app.delete(`${base}/p1`, { token: 'guest' })).status).toBe(403);
  });

  it('updates fields and priority, and clears the priority with an empty value', async () => {
    const updated = await app.put(`${base}/p1`, { new_name: 'p-one', priority: 7 }, { token: 'reporter' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'p-one', priority: 7, color: '#FFA500' });
    const onlyPriority = await app.put(`${base}/p-one`, { priority: null }, { token: 'reporter' });
    expect(onlyPriority.status).toBe(200);
    expect(onlyPriority.body.priority).toBeNull();
    const none = await app.put(`${base}/p-one`, {}, { token: 'reporter' });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'new_name, color, description, priority, archived are missing, at least one parameter must be provided' });
  });

  it('prioritises a group label within the project; group members may change it', async () => {
    const res = await app.put(`${base}/group-label`, { priority: 2 }, { token: 'reporter' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'group-label', priority: 2, is_project_label: false });
    expect((await app.get(`${groupBase}/group-label`, { token: 'reporter' })).body).not.toHaveProperty('priority');
  });

  it('supports the deprecated forms with label_id or name', async () => {
    const label = await app.post(base, { name: 'legacy', color: '#123456' }, { token: 'owner' });
    const both = await app.put(base, { label_id: label.body.id, name: 'legacy', color: '#000000' }, { token: 'owner' });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ error: 'label_id, name are mutually exclusive' });
    expect((await app.put(base, { label_id: label.body.id, color: '#000000' }, { token: 'owner' })).body.color).toBe('#000000');
    const neither = await app.delete(base, { token: 'owner' });
    expect(neither.body).toEqual({ error: 'label_id, name are missing, exactly one parameter must be provided' });
    expect((await app.delete(base, { token: 'owner', query: { name: 'legacy' } })).status).toBe(204);
  });

  it('subscribes within the project only', async () => {
    const subscribe = await app.post(`${base}/group-label/subscribe`, undefined, { token: 'developer' });
    expect(subscribe.status).toBe(201);
    expect(subscribe.body).toMatchObject({ subscribed: true, is_project_label: false });
    expect((await app.post(`${base}/group-label/subscribe`, undefined, { token: 'developer' })).status).toBe(304);
    expect((await app.get(`${groupBase}/group-label`, { token: 'developer' })).body.subscribed).toBe(false);
    expect((await app.post(`${base}/group-label/unsubscribe`, undefined, { token: 'developer' })).status).toBe(201);
    expect((await app.post(`${base}/group-label/unsubscribe`, undefined, { token: 'developer' })).status).toBe(304);
  });

  it('promotes a project label to its group, keeping its id', async () => {
    const label = await app.post(base, { name: 'to-promote', color: '#123456' }, { token: 'owner' });
    expect((await app.put(`${base}/to-promote/promote`, undefined, { token: 'guest' })).status).toBe(403);
    const promoted = await app.put(`${base}/to-promote/promote`, undefined, { token: 'reporter' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ id: label.body.id, name: 'to-promote', color: '#123456', subscribed: false });
    expect(promoted.body).not.toHaveProperty('is_project_label');
    expect((await app.get(`${groupBase}/to-promote`, { token: 'owner' })).body.id).toBe(label.body.id);
    expect((await app.get(`${base}/to-promote`, { token: 'owner' })).body.is_project_label).toBe(false);

    const again = await app.put(`${base}/to-promote/promote`, undefined, { token: 'owner' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: 'Failed to promote project label to group label' });
    await app.post(base, { name: 'legacy-promote', color: '#123456' }, { token: 'owner' });
    expect((await app.put(`${base}/promote`, { name: 'legacy-promote' }, { token: 'owner' })).status).toBe(200);
    expect((await app.put(`${base}/nope/promote`, undefined, { token: 'owner' })).status).toBe(404);
  });

  it('refuses to promote the label of a personal project', async () => {
    const personal = await app.post('/api/v4/projects', { name: 'Mine' }, { token: 'developer' });
    await app.post(`/api/v4/projects/${personal.body.id}/labels`, { name: 'mine', color: '#123456' }, { token: 'developer' });
    const res = await app.put(`/api/v4/projects/${personal.body.id}/labels/mine/promote`, undefined, { token: 'developer' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'Failed to promote project label to group label' });
  });

  it('emits created, updated with the changes, and deleted events', async () => {
    const seen: string[] = [];
    let changes: unknown;
    app.kernel.events.on(labelEvents.created, () => void seen.push('created'));
    app.kernel.events.on(labelEvents.updated, (event) => {
      seen.push('updated');
      changes = event.changes;
    });
    app.kernel.events.on(labelEvents.deleted, (event) => void seen.push(`deleted ${event.title}`));
    await app.post(base, { name: 'evented', color: '#123456' }, { token: 'owner' });
    await app.put(`${base}/evented`, { color: '#654321', description: 'x' }, { token: 'owner' });
    await app.delete(`${base}/evented`, { token: 'owner' });
    expect(seen).toEqual(['created', 'updated', 'deleted evented']);
    expect(changes).toEqual({ color: { previous: '#123456', current: '#654321' }, description: { previous: null, current: 'x' } });
  });

  it('removes the labels, priorities and subscriptions of a deleted project', async () => {
    const project = await app.post('/api/v4/projects', { name: 'Gone', namespace_id: app.group.id }, { token: 'owner' });
    expect(project.status).toBe(201);
    const projectBase = `/api/v4/projects/${project.body.id}/labels`;
    const label = await app.post(projectBase, { name: 'gone', color: '#123456', priority: 1 }, { token: 'owner' });
    await app.put(`${projectBase}/group-label`, { priority: 4 }, { token: 'owner' });
    await app.post(`${projectBase}/group-label/subscribe`, undefined, { token: 'owner' });
    expect((await app.delete(`/api/v4/projects/${project.body.id}`, { token: 'owner' })).status).toBeLessThan(300);
    const { database } = app.kernel;
    expect(await database.rows(database.from(LabelEntity).where('id', label.body.id))).toEqual([]);
    expect(await database.rows(database.from(LabelPriorityEntity).where('projectId', project.body.id))).toEqual([]);
    expect(await database.rows(database.from(LabelSubscriptionEntity).where('projectId', project.body.id))).toEqual([]);
    expect((await app.get(`${groupBase}/group-label`, { token: 'owner' })).status).toBe(200);
  });
});
