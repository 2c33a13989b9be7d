import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { answer, insufficientScope, registerRunner, registrationToken, startRunnersApp, tokenWithScopes } from '../testing/runner-fixtures.js';
import { buildRunnerWorld, type RunnerWorld } from '../testing/runner-world.js';

let app: TestApp;
let world: RunnerWorld;
beforeAll(async () => {
  app = await startRunnersApp();
  world = await buildRunnerWorld(app);
});
afterAll(() => app.close());

const noAccess = { status: 403, body: { message: '403 Forbidden - No access granted' } };
const notFound = { status: 404, body: { message: '404 Not found' } };

/** A throwaway runner so destructive tests leave the world intact. */
async function freshRunner(scope: Parameters<typeof registrationToken>[1], body: Record<string, unknown> = {}) {
  return registerRunner(app, await registrationToken(app, scope), body);
}

describe('GET /runners/:id', () => {
  it('shows instance runners to any signed-in user, without the maintenance note', async () => {
    const res = await app.get(`/api/v4/runners/${world.shared.id}`, { token: 'developer' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual([
      'id',
      'description',
      'ip_address',
      'active',
      'paused',
      'is_shared',
      'runner_type',
      'name',
      'online',
      'created_at',
      'status',
      'job_execution_status',
      'tag_list',
      'run_untagged',
      'locked',
      'maximum_timeout',
      'access_level',
      'version',
      'revision',
      'platform',
      'architecture',
      'contacted_at',
      'maintenance_note',
      'projects',
      'groups',
    ]);
    expect(res.body).toMatchObject({ description: 'Shared runner', maintenance_note: null, projects: [], groups: [] });
    expect((await app.get(`/api/v4/runners/${world.shared.id}`, { token: 'admin' })).body.maintenance_note).toBe('Maintenance note');
  });

  it('shows project runners to Maintainers of their projects only', async () => {
    const res = await app.get(`/api/v4/runners/${world.projectRunner.id}`, { token: 'maintainer' });
    expect(res).toMatchObject({
      status: 200,
      body: { description: 'Project runner', maintenance_note: 'Maintenance note', projects: [{ id: app.project.id }] },
    });
    expect(answer(await app.get(`/api/v4/runners/${world.projectRunner.id}`, { token: 'developer' }))).toEqual(noAccess);
    expect(answer(await app.get(`/api/v4/runners/${world.projectRunner.id}`, { token: 'nonMember' }))).toEqual(noAccess);
  });

  it('lists only the projects the user belongs to', async () => {
    const asMaintainer = (await app.get(`/api/v4/runners/${world.twoProjectsRunner.id}`, { token: 'maintainer' })).body;
    expect(asMaintainer.projects.map((p: { id: number }) => p.id)).toEqual([app.project.id]);
    const asOwner = (await app.get(`/api/v4/runners/${world.twoProjectsRunner.id}`, { token: 'owner' })).body;
    expect(asOwner.projects.map((p: { id: number }) => p.id)).toEqual([app.project.id, world.personalProject.id]);
    const withoutProjects = (await app.get(`/api/v4/runners/${world.projectRunner.id}`, { token: 'owner', query: { include_projects: false } })).body;
    expect(withoutProjects).not.toHaveProperty('projects');
  });

  it('shows group runners to the group’s Maintainers, the note only to its Owners', async () => {
    expect((await app.get(`/api/v4/runners/${world.groupRunnerA.id}`, { token: 'owner' })).body).toMatchObject({
      maintenance_note: 'Maintenance note',
      groups: [{ id: app.group.id }],
    });
    expect((await app.get(`/api/v4/runners/${world.groupRunnerA.id}`, { token: 'maintainer' })).body).toMatchObject({
      maintenance_note: null,
      groups: [{ id: app.group.id }],
    });
    expect(answer(await app.get(`/api/v4/runners/${world.groupRunnerA.id}`, { token: 'developer' }))).toEqual(noAccess);
  });

  it('shows a group runner to Maintainers of a project in the group, read-only', async () => {
    const member = await app.post(`/api/v4/projects/${world.project2.id}/members`, { user_id: app.users.reporter.id, access_level: 40 }, { token: 'owner' });
    expect(member.status).toBe(201);
    expect((await app.get(`/api/v4/runners/${world.groupRunnerA.id}`, { token: 'reporter' })).body).toMatchObject({
      id: world.groupRunnerA.id,
      maintenance_note: null,
    });
    expect(answer(await app.put(`/api/v4/runners/${world.groupRunnerA.id}`, { description: 'x' }, { token: 'reporter' }))).toEqual(noAccess);
    expect(answer(await app.get(`/api/v4/runners/${world.groupRunnerA.id}/jobs`, { token: 'reporter' }))).toEqual(noAccess);
  });

  it('answers 404 for a missing runner, 400 for a bad id and 401 without a token', async () => {
    expect(answer(await app.get('/api/v4/runners/999999', { token: 'admin' }))).toEqual(notFound);
    expect(answer(await app.get('/api/v4/runners/abc', { token: 'admin' }))).toEqual({ status: 400, body: { error: 'id is invalid' } });
    expect(answer(await app.get(`/api/v4/runners/${world.shared.id}`, { token: null }))).toEqual({ status: 401, body: { message: '401 Unauthorized' } });
  });

  it('accepts manage_runner and read_api tokens but not create_runner ones', async () => {
    for (const scope of ['manage_runner', 'read_api']) {
      const token = await tokenWithScopes(app, 'maintainer', [scope]);
      expect((await app.get(`/api/v4/runners/${world.projectRunner.id}`, { token })).status).toBe(200);
    }
    const token = await tokenWithScopes(app, 'maintainer', ['create_runner']);
    expect(answer(await app.get(`/api/v4/runners/${world.projectRunner.id}`, { token }))).toEqual(insufficientScope('api read_api manage_runner'));
  });
});

describe('PUT /runners/:id', () => {
  it('updates every attribute for an administrator', async () => {
    const runner = await freshRunner({ instance: true });
    const res = await app.put(
      `/api/v4/runners/${runner.id}`,
      {
        description: 'updated',
        active: false,
        tag_list: ['ruby2.1', 'pgsql', 'mysql'],
        run_untagged: 'false',
        locked: 'true',
        access_level: 'ref_protected',
        maximum_timeout: 1234,
        maintenance_note: 'moved',
      },
      { token: 'admin' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      description: 'updated',
      active: false,
      paused: true,
      tag_list: ['ruby2.1', 'pgsql', 'mysql'],
      run_untagged: false,
      locked: true,
      access_level: 'ref_protected',
      maximum_timeout: 1234,
      maintenance_note: 'moved',
    });
    const paused = await app.put(`/api/v4/runners/${runner.id}`, { paused: false }, { token: 'admin' });
    expect(paused.body).toMatchObject({ active: true, paused: false });
    expect((await app.put(`/api/v4/runners/${runner.id}`, { maximum_timeout: '' }, { token: 'admin' })).body.maximum_timeout).toBeNull();
  });

  it('lets Maintainers of the owner project update a project runner', async () => {
    const res = await app.put(`/api/v4/runners/${world.projectRunner.id}`, { description: 'Project runner' }, { token: 'maintainer' });
    expect(res).toMatchObject({ status: 200, body: { description: 'Project runner' } });
    expect(answer(await app.put(`/api/v4/runners/${world.projectRunner.id}`, { description: 'x' }, { token: 'developer' }))).toEqual(noAccess);
    expect(answer(await app.put(`/api/v4/runners/${world.shared.id}`, { description: 'x' }, { token: 'owner' }))).toEqual(noAccess);
    expect(answer(await app.put(`/api/v4/runners/${world.groupRunnerA.id}`, { description: 'x' }, { token: 'maintainer' }))).toEqual(noAccess);
    expect((await app.put(`/api/v4/runners/${world.groupRunnerB.id}`, { description: 'Group runner B' }, { token: 'owner' })).status).toBe(200);
  });

  it('requires one attribute and refuses active with paused', async () => {
    expect(answer(await app.put(`/api/v4/runners/${world.shared.id}`, {}, { token: 'admin' }))).toEqual({
      status: 400,
      body: {
        error:
          'description, active, paused, tag_list, run_untagged, locked, access_level, maximum_timeout, maintenance_note are missing, at least one parameter must be provided',
      },
    });
    expect(answer(await app.put(`/api/v4/runners/${world.shared.id}`, { active: true, paused: true }, { token: 'admin' }))).toEqual({
      status: 400,
      body: { error: 'active, paused are mutually exclusive' },
    });
    expect(answer(await app.put(`/api/v4/runners/${world.shared.id}`, { access_level: 'all' }, { token: 'admin' }))).toEqual({
      status: 400,
      body: { error: 'access_level does not have a valid value' },
    });
  });

  it('reports model validation errors and changes nothing', async () => {
    const runner = world.shared.id;
    expect(answer(await app.put(`/api/v4/runners/${runner}`, { maximum_timeout: 10, description: 'changed' }, { token: 'admin' }))).toEqual({
      status: 400,
      body: { message: { maximum_timeout: ['needs to be at least 10 minutes'] } },
    });
    expect(answer(await app.put(`/api/v4/runners/${runner}`, { run_untagged: false }, { token: 'admin' }))).toEqual({
      status: 400,
      body: { message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] } },
    });
    expect(answer(await app.put(`/api/v4/runners/${runner}`, { maintenance_note: 'n'.repeat(1025) }, { token: 'admin' }))).toEqual({
      status: 400,
      body: { message: { maintenance_note: ['is too long (maximum is 1024 characters)'] } },
    });
    expect((await app.get(`/api/v4/runners/${runner}`, { token: 'admin' })).body.description).toBe('Shared runner');
  });

  it('answers 404 for a missing runner and accepts manage_runner but not read_api tokens', async () => {
    expect(answer(await app.put('/api/v4/runners/999999', { description: 'x' }, { token: 'admin' }))).toEqual(notFound);
    const manage = await tokenWithScopes(app, 'maintainer', ['manage_runner']);
    expect((await app.put(`/api/v4/runners/${world.projectRunner.id}`, { description: 'Project runner' }, { token: manage })).status).toBe(200);
    const readOnly = await tokenWithScopes(app, 'maintainer', ['read_api']);
    expect(answer(await app.put(`/api/v4/runners/${world.projectRunner.id}`, { description: 'x' }, { token: readOnly }))).toEqual(
      insufficientScope('api manage_runner'),
    );
  });
});

describe('DELETE /runners/:id', () => {
  it('deletes runners their owners manage', async () => {
    const project = await freshRunner({ project: app.project.id });
    expect((await app.delete(`/api/v4/runners/${project.id}`, { token: 'maintainer' })).status).toBe(204);
    expect(answer(await app.get(`/api/v4/runners/${project.id}`, { token: 'admin' }))).toEqual(notFound);
    const group = await freshRunner({ group: world.subgroup.id });
    expect((await app.delete(`/api/v4/runners/${group.id}`, { token: 'owner' })).status).toBe(204);
    const shared = await freshRunner({ instance: true });
    const manage = await tokenWithScopes(app, 'admin', ['manage_runner']);
    expect((await app.delete(`/api/v4/runners/${shared.id}`, { token: manage })).status).toBe(204);
  });

  it('refuses users who do not own the runner', async () => {
    expect(answer(await app.delete(`/api/v4/runners/${world.groupRunnerA.id}`, { token: 'maintainer' }))).toEqual(noAccess);
    expect(answer(await app.delete(`/api/v4/runners/${world.shared.id}`, { token: 'owner' }))).toEqual(noAccess);
    expect(answer(await app.delete(`/api/v4/runners/${world.projectRunner.id}`, { token: 'developer' }))).toEqual(noAccess);
    expect(answer(await app.delete(`/api/v4/runners/${world.twoProjectsRunner.id}`, { token: 'owner' }))).toEqual({
      status: 403,
      body: { message: '403 Forbidden - Runner associated with more than one project' },
    });
    expect(answer(await app.delete('/api/v4/runners/999999', { token: 'admin' }))).toEqual(notFound);
  });

  it('lets administrators delete a runner shared by several projects, unless changed since If-Unmodified-Since', async () => {
    const runner = await freshRunner({ project: app.project.id });
    await app.post(`/api/v4/projects/${world.project2.id}/runners`, { runner_id: runner.id }, { token: 'admin' });
    const stale = new Date(Date.now() - 3_600_000).toUTCString();
    expect(answer(await app.request('DELETE', `/api/v4/runners/${runner.id}`, { token: 'admin', headers: { 'If-Unmodified-Since': stale } }))).toEqual({
      status: 412,
      body: { message: '412 Precondition Failed' },
    });
    expect((await app.delete(`/api/v4/runners/${runner.id}`, { token: 'admin' })).status).toBe(204);
  });
});

describe('GET /runners/:id/jobs', () => {
  it('is empty until jobs exist, with pagination headers', async () => {
    const res = await app.get(`/api/v4/runners/${world.shared.id}/jobs`, { token: 'admin' });
    expect(res).toMatchObject({ status: 200, body: [] });
    expect(res.headers.get('x-total')).toBe('0');
    expect(
      (await app.get(`/api/v4/runners/${world.projectRunner.id}/jobs`, { token: 'maintainer', query: { status: 'failed', order_by: 'id', sort: 'asc' } }))
        .status,
    ).toBe(200);
    expect((await app.get(`/api/v4/runners/${world.groupRunnerA.id}/jobs`, { token: 'maintainer' })).status).toBe(200);
  });

  it('leaves the total out when narrowed to one manager', async () => {
    const res = await app.get(`/api/v4/runners/${world.shared.id}/jobs`, { token: 'admin', query: { system_id: 'id1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).toBeNull();
  });

  it('is refused to users who may not see the runner’s jobs', async () => {
    expect(answer(await app.get(`/api/v4/runners/${world.shared.id}/jobs`, { token: 'owner' }))).toEqual(noAccess);
    expect(answer(await app.get(`/api/v4/runners/${world.groupRunnerA.id}/jobs`, { token: 'developer' }))).toEqual(noAccess);
    expect(answer(await app.get('/api/v4/runners/999999/jobs', { token: 'admin' }))).toEqual(notFound);
  });

  it('validates its filters', async () => {
    const get = (query: Record<string, string>) => app.get(`/api/v4/runners/${world.shared.id}/jobs`, { token: 'admin', query });
    expect(answer(await get({ status: 'non-existing' }))).toEqual({ status: 400, body: { error: 'status does not have a valid value' } });
    expect(answer(await get({ order_by: 'name' }))).toEqual({ status: 400, body: { error: 'order_by does not have a valid value' } });
    expect(answer(await get({ sort: 'sideways' }))).toEqual({ status: 400, body: { error: 'sort does not have a valid value' } });
  });
});

describe('POST /runners/:id/reset_authentication_token', () => {
  it('gives the runner a new token for users who may update it', async () => {
    const runner = await freshRunner({ group: app.group.id });
    const res = await app.post(`/api/v4/runners/${runner.id}/reset_authentication_token`, undefined, { token: 'owner' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ token: expect.stringMatching(/^fkrtr-t2_/), token_expires_at: null });
    expect(answer(await app.post('/api/v4/runners/verify', { token: runner.token }))).toEqual({ status: 403, body: { message: '403 Forbidden' } });
    expect((await app.post('/api/v4/runners/verify', { token: res.body.token })).status).toBe(200);
    const manage = await tokenWithScopes(app, 'owner', ['manage_runner']);
    expect((await app.post(`/api/v4/runners/${runner.id}/reset_authentication_token`, undefined, { token: manage })).status).toBe(201);
  });

  it('is refused to users who may not update the runner', async () => {
    expect(answer(await app.post(`/api/v4/runners/${world.groupRunnerA.id}/reset_authentication_token`, undefined, { token: 'maintainer' }))).toEqual(noAccess);
    expect(answer(await app.post(`/api/v4/runners/${world.shared.id}/reset_authentication_token`, undefined, { token: 'owner' }))).toEqual(noAccess);
    expect(answer(await app.post('/api/v4/runners/999999/reset_authentication_token', undefined, { token: 'admin' }))).toEqual(notFound);
    const readOnly = await tokenWithScopes(app, 'owner', ['read_api']);
    expect(answer(await app.post(`/api/v4/runners/${world.groupRunnerA.id}/reset_authentication_token`, undefined, { token: readOnly }))).toEqual(
      insufficientScope('api manage_runner'),
    );
  });
});
