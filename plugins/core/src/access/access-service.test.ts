import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@forgekit/kernel';
import { coreAccessRef, type AccessService } from '../contracts.js';
import { MemberEntity } from '../entities/member.js';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';

/**
 * A project named by id is read with the caller's levels in one statement; by path, the
 * levels come from a second lookup. Both must give the same access.
 */
describe('project access by id and by path', () => {
  let app: TestApp;
  let project: { id: number; path_with_namespace: string };

  const byIdAndPath = async (token: string) => {
    const [byId, byPath] = await Promise.all([
      app.get(`/api/v4/projects/${project.id}`, { token }),
      app.get(`/api/v4/projects/${encodeURIComponent(project.path_with_namespace)}`, { token }),
    ]);
    expect(byPath.status).toBe(byId.status);
    expect(byPath.body).toEqual(byId.body);
    return byId;
  };
  const addMember = (source: string, userId: number, level: number, expiresAt: string | null = null) =>
    app.kernel.database.insert(MemberEntity, {
      sourceType: source.startsWith('Project') ? 'Project' : 'Namespace',
      sourceId: Number(source.split(':')[1]),
      userId,
      accessLevel: level,
      expiresAt,
      createdAt: new Date(),
      updatedAt: new Date(),
    });

  beforeAll(async () => {
    app = await createTestApp();
    const subgroup = await app.post('/api/v4/groups', { name: 'Inner', path: 'inner', parent_id: app.group.id }, { token: 'owner' });
    expect(subgroup.status).toBe(201);
    const created = await app.post('/api/v4/projects', { name: 'Deep', path: 'deep', namespace_id: subgroup.body.id }, { token: 'owner' });
    expect(created.status).toBe(201);
    project = created.body;
  });
  afterAll(() => app?.close());

  it('inherits the level of a parent group member', async () => {
    const res = await byIdAndPath('developer');
    expect(res.status).toBe(200);
    expect(res.body.permissions).toEqual({ project_access: null, group_access: { access_level: 30, notification_level: 3 } });
  });

  it('ignores an expired membership and counts a current one', async () => {
    const outsider = app.users.nonMember.id;
    await addMember(`Namespace:${app.group.id}`, outsider, 40, '2000-01-01');
    expect((await byIdAndPath('nonMember')).body).toEqual({ message: '404 Project Not Found' });
    await addMember(`Project:${project.id}`, outsider, 20);
    const res = await byIdAndPath('nonMember');
    expect(res.body.permissions).toEqual({ project_access: { access_level: 20, notification_level: 3 }, group_access: null });
  });

  it('takes the higher of a direct and a group level for permission checks', async () => {
    await addMember(`Project:${project.id}`, app.users.guest.id, 40);
    const res = await byIdAndPath('guest');
    expect(res.body.permissions).toEqual({
      project_access: { access_level: 40, notification_level: 3 },
      group_access: { access_level: 10, notification_level: 3 },
    });
    expect((await app.put(`/api/v4/projects/${project.id}`, { description: 'edited by a maintainer' }, { token: 'guest' })).status).toBe(200);
    expect((await app.put(`/api/v4/projects/${project.id}`, { description: 'not by a reporter' }, { token: 'reporter' })).status).toBe(403);
  });
});

describe('visible project and group ids', () => {
  let app: TestApp;
  let access: AccessService;
  const principal = (role: 'developer' | 'nonMember' | 'owner'): Principal => {
    const user = app.users[role];
    return { id: user.id, username: user.username, name: user.name, isAdmin: false, external: false, state: 'active' };
  };

  beforeAll(async () => {
    app = await createTestApp();
    access = app.kernel.resolve(coreAccessRef);
  });
  afterAll(() => app?.close());

  it('answers the projects a member may see, at a least level, among given ids', async () => {
    const developer = principal('developer');
    expect(await access.visibleProjectIds(developer, { ids: [app.project.id] })).toEqual([app.project.id]);
    expect(await access.visibleProjectIds(developer, { ids: [app.project.id], minLevel: 40 })).toEqual([]);
    expect(await access.visibleProjectIds(principal('nonMember'), { ids: [app.project.id], membershipOnly: true })).toEqual([]);
    expect(await access.visibleProjectIds(developer, { ids: [] })).toEqual([]);
  });

  it('answers each caller, group and limit for itself when they share a statement', async () => {
    const membership = { ids: [app.project.id], membershipOnly: true };
    expect(await access.visibleProjectIds(principal('developer'), membership)).toEqual([app.project.id]);
    expect(await access.visibleProjectIds(principal('nonMember'), membership)).toEqual([]);
    expect(await access.visibleProjectIds(principal('developer'), membership)).toEqual([app.project.id]);
    const owner = principal('owner');
    expect(await access.visibleProjectIds(owner, { underTraversalPath: `/${app.group.id}/` })).toContain(app.project.id);
    expect(await access.visibleProjectIds(owner, { underTraversalPath: `/${app.group.id}0/` })).toEqual([]);
    expect(await access.visibleProjectIds(owner, { underTraversalPath: '/_%/' })).toEqual([]);
    expect((await app.post('/api/v4/projects', { name: 'another' }, { token: 'admin' })).status).toBe(201);
    const admin = { ...owner, isAdmin: true };
    const every = await access.visibleProjectIds(admin);
    expect(every.length).toBeGreaterThan(1);
    expect(await access.visibleProjectIds(admin, { limit: 1 })).toEqual(every.slice(0, 1));
    expect(await access.visibleProjectIds(admin, { limit: 2 })).toEqual(every.slice(0, 2));
  });

  it('answers the projects under a group, and the groups a member owns', async () => {
    const owner = principal('owner');
    const under = await access.visibleProjectIds(owner, { underTraversalPath: `/${app.group.id}/`, minLevel: 40 });
    expect(under).toContain(app.project.id);
    expect(await access.visibleGroupIds(owner, { minLevel: 50 })).toContain(app.group.id);
    expect(await access.visibleGroupIds(principal('developer'), { minLevel: 50 })).not.toContain(app.group.id);
  });
});
