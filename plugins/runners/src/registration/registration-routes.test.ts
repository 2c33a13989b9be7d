import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { answer, createRunner, insufficientScope, registerRunner, startRunnersApp, tokenWithScopes } from '../testing/runner-fixtures.js';

let app: TestApp;
beforeAll(async () => {
  app = await startRunnersApp();
});
afterAll(() => app.close());

const reset = (path: string, token: string | null) => app.post(`/api/v4${path}/reset_registration_token`, undefined, { token });

describe('registration token resets', () => {
  it('resets the instance token for administrators only', async () => {
    const res = await reset('/runners', 'admin');
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['token', 'token_expires_at']);
    expect(res.body).toMatchObject({ token: expect.stringMatching(/^fkrrt-/), token_expires_at: null });
    expect(answer(await reset('/runners', 'owner'))).toEqual({ status: 403, body: { message: '403 Forbidden' } });
    expect(answer(await reset('/runners', null))).toEqual({ status: 401, body: { message: '401 Unauthorized' } });
  });

  it('resets a project token for Maintainers', async () => {
    const path = `/projects/${app.project.id}/runners`;
    expect((await reset(path, 'maintainer')).status).toBe(201);
    expect((await reset('/projects/test-group%2Ftest-project/runners', 'owner')).status).toBe(201);
    expect(answer(await reset(path, 'developer'))).toEqual({ status: 403, body: { message: '403 Forbidden' } });
    expect(answer(await reset(path, 'nonMember'))).toEqual({ status: 404, body: { message: '404 Project Not Found' } });
    expect(answer(await reset(path, null))).toEqual({ status: 401, body: { message: '401 Unauthorized' } });
  });

  it('resets a group token for Owners', async () => {
    const path = `/groups/${app.group.id}/runners`;
    expect((await reset(path, 'owner')).status).toBe(201);
    expect(answer(await reset(path, 'maintainer'))).toEqual({ status: 403, body: { message: '403 Forbidden' } });
    expect(answer(await reset(path, 'nonMember'))).toEqual({ status: 404, body: { message: '404 Group Not Found' } });
  });

  it('makes the previous token of the scope stop working', async () => {
    const first = (await reset('/runners', 'admin')).body.token;
    const second = (await reset('/runners', 'admin')).body.token;
    expect(answer(await app.post('/api/v4/runners', { token: first }))).toEqual({ status: 403, body: { message: '403 Forbidden' } });
    expect((await app.post('/api/v4/runners', { token: second })).status).toBe(201);
  });
});

describe('POST /user/runners', () => {
  const show = (id: number) => app.get(`/api/v4/runners/${id}`, { token: 'admin' });

  it('creates an instance runner for an administrator', async () => {
    const res = await app.post(
      '/api/v4/user/runners',
      { runner_type: 'instance_type', description: 'shared', tag_list: ['a', 'b'], paused: true },
      { token: 'admin' },
    );
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['id', 'token', 'token_expires_at']);
    expect(res.body.token).toMatch(/^fkrt-t1_/);
    const runner = (await show(res.body.id)).body;
    expect(runner).toMatchObject({ runner_type: 'instance_type', description: 'shared', tag_list: ['a', 'b'], paused: true, status: 'never_contacted' });
    expect(runner.created_by).toMatchObject({ id: app.users.admin.id, username: 'administrator', web_url: 'http://localhost/administrator' });
  });

  it('creates group runners for Owners and project runners for Maintainers', async () => {
    const group = await createRunner(app, 'owner', { runner_type: 'group_type', group_id: app.group.id, maintenance_note: 'note' });
    expect(group.token).toMatch(/^fkrt-t2_/);
    expect((await show(group.id)).body).toMatchObject({ runner_type: 'group_type', maintenance_note: 'note', groups: [{ id: app.group.id }] });
    const project = await createRunner(app, 'maintainer', {
      runner_type: 'project_type',
      project_id: app.project.id,
      locked: true,
      access_level: 'ref_protected',
      maximum_timeout: 900,
      run_untagged: false,
      tag_list: 'x',
    });
    expect(project.token).toMatch(/^fkrt-t3_/);
    expect((await show(project.id)).body).toMatchObject({
      runner_type: 'project_type',
      locked: true,
      access_level: 'ref_protected',
      maximum_timeout: 900,
      run_untagged: false,
      tag_list: ['x'],
      projects: [{ id: app.project.id }],
    });
  });

  it('refuses users without the rights in the target', async () => {
    const insufficient = { status: 403, body: { message: '403 Forbidden - Insufficient permissions' } };
    expect(answer(await app.post('/api/v4/user/runners', { runner_type: 'instance_type' }, { token: 'owner' }))).toEqual(insufficient);
    expect(answer(await app.post('/api/v4/user/runners', { runner_type: 'group_type', group_id: app.group.id }, { token: 'maintainer' }))).toEqual(
      insufficient,
    );
    expect(answer(await app.post('/api/v4/user/runners', { runner_type: 'project_type', project_id: app.project.id }, { token: 'developer' }))).toEqual(
      insufficient,
    );
    expect(answer(await app.post('/api/v4/user/runners', { runner_type: 'project_type', project_id: app.project.id }, { token: 'nonMember' }))).toEqual(
      insufficient,
    );
    expect(answer(await app.post('/api/v4/user/runners', { runner_type: 'instance_type' }, { token: null }))).toEqual({
      status: 401,
      body: { message: '401 Unauthorized' },
    });
  });

  it('validates the runner type and its target', async () => {
    expect(answer(await app.post('/api/v4/user/runners', {}, { token: 'admin' }))).toEqual({
      status: 400,
      body: { error: 'runner_type is missing, runner_type does not have a valid value' },
    });
    expect(answer(await app.post('/api/v4/user/runners', { runner_type: 'cloud' }, { token: 'admin' }))).toEqual({
      status: 400,
      body: { error: 'runner_type does not have a valid value' },
    });
    expect(answer(await app.post('/api/v4/user/runners', { runner_type: 'group_type' }, { token: 'admin' }))).toEqual({
      status: 400,
      body: { error: 'group_id is missing' },
    });
    expect(answer(await app.post('/api/v4/user/runners', { runner_type: 'project_type' }, { token: 'admin' }))).toEqual({
      status: 400,
      body: { error: 'project_id is missing' },
    });
    expect(answer(await app.post('/api/v4/user/runners', { runner_type: 'group_type', group_id: 99999 }, { token: 'admin' }))).toEqual({
      status: 400,
      body: { message: '400 Bad request - Missing/invalid group' },
    });
    expect(answer(await app.post('/api/v4/user/runners', { runner_type: 'project_type', project_id: 99999 }, { token: 'admin' }))).toEqual({
      status: 400,
      body: { message: '400 Bad request - Missing/invalid project' },
    });
  });

  it('reports model errors as one sentence', async () => {
    expect(answer(await app.post('/api/v4/user/runners', { runner_type: 'instance_type', run_untagged: false }, { token: 'admin' }))).toEqual({
      status: 400,
      body: { message: '400 Bad request - Tags list can not be empty when runner is not allowed to pick untagged jobs' },
    });
    expect(
      answer(
        await app.post('/api/v4/user/runners', { runner_type: 'instance_type', maximum_timeout: 60, maintenance_note: 'n'.repeat(1025) }, { token: 'admin' }),
      ),
    ).toEqual({
      status: 400,
      body: { message: '400 Bad request - Maximum timeout needs to be at least 10 minutes and Maintenance note is too long (maximum is 1024 characters)' },
    });
  });

  it('enforces ci_registered_project_runners', async () => {
    await app.put('/api/v4/application/plan_limits', { plan_name: 'default', ci_registered_project_runners: 1 }, { token: 'admin' });
    try {
      const res = await app.post('/api/v4/user/runners', { runner_type: 'project_type', project_id: app.project.id }, { token: 'maintainer' });
      expect(answer(res)).toEqual({
        status: 400,
        body: { message: '400 Bad request - Runner projects base Maximum number of ci registered project runners (1) exceeded' },
      });
    } finally {
      await app.put('/api/v4/application/plan_limits', { plan_name: 'default', ci_registered_project_runners: 1000 }, { token: 'admin' });
    }
  });

  it('accepts create_runner tokens and refuses read-only or manage_runner ones', async () => {
    const createToken = await tokenWithScopes(app, 'owner', ['create_runner']);
    expect((await app.post('/api/v4/user/runners', { runner_type: 'group_type', group_id: app.group.id }, { token: createToken })).status).toBe(201);
    for (const scope of ['read_api', 'manage_runner']) {
      const token = await tokenWithScopes(app, 'owner', [scope]);
      const res = await app.post('/api/v4/user/runners', { runner_type: 'group_type', group_id: app.group.id }, { token });
      expect(answer(res)).toEqual(insufficientScope('api create_runner'));
    }
  });

  it('leaves created runners never contacted until they verify', async () => {
    const runner = await createRunner(app, 'admin', { runner_type: 'instance_type' });
    expect((await show(runner.id)).body.status).toBe('never_contacted');
    expect((await app.post('/api/v4/runners/verify', { token: runner.token })).status).toBe(200);
    expect((await show(runner.id)).body.status).toBe('online');
  });

  it('omits created_by for runners registered with a token', async () => {
    const token = (await reset('/runners', 'admin')).body.token;
    const registered = await registerRunner(app, token);
    expect((await show(registered.id)).body.created_by).toBeUndefined();
  });
});
