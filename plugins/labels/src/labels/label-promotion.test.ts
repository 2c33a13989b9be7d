import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelEvents } from '../contracts.js';
import { LabelEntity } from '../entities/label.js';
import { LabelPriorityEntity } from '../entities/label-priority.js';
import { LabelSubscriptionEntity } from '../entities/label-subscription.js';
import { labelsPlugin } from '../plugin.js';

describe('promoting a project label over labels of the same title', () => {
  let app: TestApp;
  let groupBase: string;
  let labelsA: string;
  let labelsB: string;
  let projectB: number;
  const seen: string[] = [];
  let merged: { from: number[]; to: number; groupId: number } | undefined;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [labelsPlugin] });
    groupBase = `/api/v4/groups/${app.group.id}/labels`;
    labelsA = `/api/v4/projects/${app.project.id}/labels`;
    const other = await app.post('/api/v4/projects', { name: 'Other', namespace_id: app.group.id }, { token: 'owner' });
    projectB = other.body.id;
    labelsB = `/api/v4/projects/${projectB}/labels`;
    app.kernel.events.on(labelEvents.merged, (event) => {
      merged = event;
      seen.push('merged');
    });
    app.kernel.events.on(labelEvents.deleted, (event) => void seen.push(`deleted ${event.labelId}`));
  });
  afterAll(() => app?.close());

  it('merges the same-titled labels of the group and its projects into the existing group label', async () => {
    const inA = (await app.post(labelsA, { name: 'dup', color: '#111111', description: 'from a', priority: 1 }, { token: 'owner' })).body;
    const inB = (await app.post(labelsB, { name: 'dup', color: '#222222', priority: 5 }, { token: 'owner' })).body;
    const group = (await app.post(groupBase, { name: 'dup', color: '#333333', archived: true }, { token: 'owner' })).body;
    await app.post(`${labelsB}/dup/subscribe`, undefined, { token: 'developer' });
    await app.post(`${labelsA}/dup/subscribe`, undefined, { token: 'developer' });
    await app.post(`${groupBase}/dup/subscribe`, undefined, { token: 'reporter' });
    await app.post(`${labelsB}/dup/subscribe`, undefined, { token: 'reporter' });
    // A project of another group keeps its label.
    const elsewhere = await app.post('/api/v4/projects', { name: 'Elsewhere' }, { token: 'owner' });
    const outside = (await app.post(`/api/v4/projects/${elsewhere.body.id}/labels`, { name: 'dup', color: '#444444' }, { token: 'owner' })).body;
    seen.length = 0;

    const res = await app.put(`${labelsA}/${inA.id}/promote`, undefined, { token: 'reporter' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: group.id,
      name: 'dup',
      color: '#111111',
      description: 'from a',
      description_html: '<p>from a</p>',
      text_color: '#FFFFFF',
      archived: false,
      subscribed: true,
    });
    expect(merged).toEqual({ from: [inA.id, inB.id], to: group.id, groupId: app.group.id, userId: app.users.reporter.id });
    expect(seen).toEqual(['merged', `deleted ${inA.id}`, `deleted ${inB.id}`]);

    const { database } = app.kernel;
    expect((await database.rows(database.from(LabelEntity).where('title', 'dup').orderBy('id'))).map((row) => row.id)).toEqual([group.id, outside.id]);
    const priorities = await database.rows(database.from(LabelPriorityEntity).where('labelId', group.id).orderBy('projectId'));
    expect(priorities.map((row) => [row.projectId, row.priority])).toEqual([
      [app.project.id, 1],
      [projectB, 5],
    ]);
    const subscriptions = await database.rows(database.from(LabelSubscriptionEntity).whereIn('labelId', [inA.id, inB.id, group.id]));
    expect(subscriptions.map((row) => [row.labelId, row.userId]).sort()).toEqual(
      [
        [group.id, app.users.developer.id],
        [group.id, app.users.reporter.id],
      ].sort(),
    );
    // The developer's newest subscription (through project A) is the one kept.
    expect((await app.get(`${labelsA}/dup`, { token: 'developer' })).body).toMatchObject({
      id: group.id,
      subscribed: true,
      priority: 1,
      is_project_label: false,
    });
    expect((await app.get(`${labelsB}/dup`, { token: 'developer' })).body).toMatchObject({ id: group.id, subscribed: false, priority: 5 });
  });

  it('moves a label the group does not have, keeping its id, and merges the other projects into it', async () => {
    const inA = (await app.post(labelsA, { name: 'solo', color: '#123456' }, { token: 'owner' })).body;
    const inB = (await app.post(labelsB, { name: 'solo', color: '#654321' }, { token: 'owner' })).body;
    merged = undefined;
    const res = await app.put(`${labelsB}/solo/promote`, undefined, { token: 'owner' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: inB.id, name: 'solo', color: '#654321' });
    expect(merged).toEqual({ from: [inA.id], to: inB.id, groupId: app.group.id, userId: app.users.owner.id });
    expect((await app.get(`${groupBase}/solo`, { token: 'owner' })).body.id).toBe(inB.id);
    expect((await app.get(`${labelsA}/solo`, { token: 'owner' })).body).toMatchObject({ id: inB.id, is_project_label: false });
  });

  it('answers GitLab errors: no group, role in the group, a group label, an unknown label', async () => {
    await app.post(labelsA, { name: 'kept', color: '#123456' }, { token: 'owner' });
    const guest = await app.put(`${labelsA}/kept/promote`, undefined, { token: 'guest' });
    expect(guest.status).toBe(403);
    expect(guest.body).toEqual({ message: '403 Forbidden' });
    const groupLabel = await app.put(`${labelsA}/solo/promote`, undefined, { token: 'owner' });
    expect(groupLabel.status).toBe(400);
    expect(groupLabel.body).toEqual({ message: 'Failed to promote project label to group label' });
    const unknown = await app.put(`${labelsA}/nope/promote`, undefined, { token: 'owner' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: '404 Label Not Found' });
    const hidden = await app.put(`${labelsA}/kept/promote`, undefined, { token: 'nonMember' });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
    const legacy = await app.put(`${labelsA}/promote`, {}, { token: 'owner' });
    expect(legacy.status).toBe(400);
    expect(legacy.body).toEqual({ error: 'name is missing' });
  });
});
