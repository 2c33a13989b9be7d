import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsServiceRef, type LabelsService } from '../contracts.js';
import { labelsPlugin } from '../plugin.js';

describe('LabelsService', () => {
  let app: TestApp;
  let service: LabelsService;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [labelsPlugin] });
    service = app.kernel.resolve(labelsServiceRef);
    // A project label first: a group label of the same title may come later, not the other way round.
    await app.post(`/api/v4/projects/${app.project.id}/labels`, { name: 'shared', color: '#0000FF' }, { token: 'owner' });
    await app.post(`/api/v4/groups/${app.group.id}/labels`, { name: 'shared', color: '#00FF00' }, { token: 'owner' });
    await app.post(`/api/v4/groups/${app.group.id}/labels`, { name: 'group-only', color: 'red', description: '*x*' }, { token: 'owner' });
  });
  afterAll(() => app?.close());

  it('finds labels by title, the project own first, and creates missing ones when asked', async () => {
    const found = await service.forProject(app.project.id, ['shared', 'group-only', 'missing']);
    expect(found.map((label) => [label.title, label.projectId, label.groupId])).toEqual([
      ['shared', app.project.id, null],
      ['group-only', null, app.group.id],
    ]);

    const created = await service.forProject(app.project.id, ['missing', ' missing ', 'a,b'], { create: { userId: app.users.owner.id } });
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ title: 'missing', color: '#428BCA', projectId: app.project.id, groupId: null, archived: false });
    expect((await service.forProject(app.project.id, ['missing'], { create: { userId: app.users.owner.id } }))[0]!.id).toBe(created[0]!.id);
  });

  it('answers labels by id and ids by title, leaving unknown ones out', async () => {
    const [shared, groupOnly] = await service.forProject(app.project.id, ['shared', 'group-only']);
    expect((await service.byIds([groupOnly!.id, 999_999])).map((label) => label.id)).toEqual([groupOnly!.id]);
    const ids = await service.idsMatching(app.project.id, ['shared']);
    expect(ids.sort()).toEqual([shared!.id, (await app.get(`/api/v4/groups/${app.group.id}/labels/shared`, { token: 'owner' })).body.id].sort());
  });

  it('presents titles sorted and detail objects', async () => {
    const labels = await service.forProject(app.project.id, ['shared', 'group-only']);
    expect(service.present(labels, false)).toEqual(['group-only', 'shared']);
    expect(service.present(labels, true)[0]).toEqual({
      id: labels[1]!.id,
      name: 'group-only',
      color: '#FF0000',
      description: '*x*',
      description_html: '<p><em>x</em></p>',
      text_color: '#FFFFFF',
      archived: false,
    });
  });

  it('asks registered counters for with_counts', async () => {
    const [groupOnly] = await service.forProject(app.project.id, ['group-only']);
    service.registerCounts('issues', async (ids) => new Map(ids.filter((id) => id === groupOnly!.id).map((id) => [id, { opened: 3, closed: 1 }])));
    const res = await app.get(`/api/v4/groups/${app.group.id}/labels`, { token: 'owner', query: { with_counts: true } });
    expect(res.body.find((label: { name: string }) => label.name === 'group-only')).toMatchObject({
      open_issues_count: 3,
      closed_issues_count: 1,
      open_merge_requests_count: 0,
    });
    expect(res.body.find((label: { name: string }) => label.name === 'shared')).toMatchObject({ open_issues_count: 0, closed_issues_count: 0 });
  });
});
