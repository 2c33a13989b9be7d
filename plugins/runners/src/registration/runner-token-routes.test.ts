import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { RunnerEntity } from '../entities/runner.js';
import { RunnerManagerEntity } from '../entities/runner-manager.js';
import { answer, createProject, registerRunner, registrationToken, setTimes, startRunnersApp } from '../testing/runner-fixtures.js';

let app: TestApp;
let instanceToken: string;
beforeAll(async () => {
  app = await startRunnersApp();
  instanceToken = await registrationToken(app, { instance: true });
});
afterAll(() => app.close());

const details = (id: number) => app.get(`/api/v4/runners/${id}`, { token: 'admin' });

describe('POST /runners (registration)', () => {
  it('registers an instance runner with defaults and returns its token once', async () => {
    const res = await app.post('/api/v4/runners', { token: instanceToken });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['id', 'token', 'token_expires_at']);
    expect(res.body.token).toMatch(/^fkrtr-t1_[A-Za-z0-9]{24}$/);
    expect(res.body.token_expires_at).toBeNull();
    const runner = (await details(res.body.id)).body;
    expect(runner).toMatchObject({
      runner_type: 'instance_type',
      is_shared: true,
      active: true,
      paused: false,
      run_untagged: true,
      locked: false,
      access_level: 'not_protected',
      maximum_timeout: null,
      tag_list: [],
      status: 'never_contacted',
      online: false,
      contacted_at: null,
    });
    const { database } = app.kernel;
    const stored = await database.row(database.from(RunnerEntity).where('id', res.body.id));
    expect(stored!.tokenDigest).not.toContain(res.body.token);
  });

  it('stores every setting sent with the registration', async () => {
    const { id } = await registerRunner(app, instanceToken, {
      description: 'builder',
      maintainer_note: 'rack 4',
      info: { name: 'gitlab-runner', version: '17.1.0', executor: 'docker' },
      paused: true,
      locked: true,
      access_level: 'ref_protected',
      run_untagged: false,
      tag_list: 'docker, linux,docker',
      maximum_timeout: 3600,
    });
    expect((await details(id)).body).toMatchObject({
      description: 'builder',
      maintenance_note: 'rack 4',
      name: 'gitlab-runner',
      active: false,
      paused: true,
      status: 'never_contacted',
      locked: true,
      access_level: 'ref_protected',
      run_untagged: false,
      tag_list: ['docker', 'linux'],
      maximum_timeout: 3600,
    });
  });

  it('creates project and group runners from their registration tokens', async () => {
    const project = await registerRunner(app, await registrationToken(app, { project: app.project.id }));
    expect((await details(project.id)).body).toMatchObject({
      runner_type: 'project_type',
      is_shared: false,
      groups: [],
      projects: [
        {
          id: app.project.id,
          name: 'Test Project',
          name_with_namespace: 'Test Group / Test Project',
          path: 'test-project',
          path_with_namespace: 'test-group/test-project',
        },
      ],
    });
    expect(project.token).toMatch(/^fkrtr-t3_/);
    const group = await registerRunner(app, await registrationToken(app, { group: app.group.id }));
    expect((await details(group.id)).body).toMatchObject({
      runner_type: 'group_type',
      projects: [],
      groups: [{ id: app.group.id, web_url: 'http://localhost/groups/test-group', name: 'Test Group' }],
    });
    expect(group.token).toMatch(/^fkrtr-t2_/);
  });

  it('answers 400 without a token and 403 for an unknown or replaced one', async () => {
    expect(answer(await app.post('/api/v4/runners', {}))).toEqual({ status: 400, body: { error: 'token is missing' } });
    expect(answer(await app.post('/api/v4/runners', { token: 'fkrrt-unknown' }))).toEqual({ status: 403, body: { message: '403 Forbidden' } });
    const old = await registrationToken(app, { project: app.project.id });
    await registrationToken(app, { project: app.project.id });
    expect(answer(await app.post('/api/v4/runners', { token: old }))).toEqual({ status: 403, body: { message: '403 Forbidden' } });
  });

  it('rejects conflicting and invalid parameters', async () => {
    expect(answer(await app.post('/api/v4/runners', { token: instanceToken, active: true, paused: false }))).toEqual({
      status: 400,
      body: { error: 'active, paused are mutually exclusive' },
    });
    expect(answer(await app.post('/api/v4/runners', { token: instanceToken, maintainer_note: 'a', maintenance_note: 'b' }))).toEqual({
      status: 400,
      body: { error: 'maintainer_note, maintenance_note are mutually exclusive' },
    });
    expect(answer(await app.post('/api/v4/runners', { token: instanceToken, access_level: 'everything' }))).toEqual({
      status: 400,
      body: { error: 'access_level does not have a valid value' },
    });
    expect(answer(await app.post('/api/v4/runners', { token: instanceToken, maximum_timeout: 'soon' }))).toEqual({
      status: 400,
      body: { error: 'maximum_timeout is invalid' },
    });
  });

  it('reports model validation errors', async () => {
    expect(answer(await app.post('/api/v4/runners', { token: instanceToken, run_untagged: false }))).toEqual({
      status: 400,
      body: { message: { tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] } },
    });
    const tags = Array.from({ length: 51 }, (_, i) => `tag${i}`);
    expect(answer(await app.post('/api/v4/runners', { token: instanceToken, tag_list: tags }))).toEqual({
      status: 400,
      body: { message: { tags_list: ['Too many tags specified. Please limit the number of tags to 50'] } },
    });
    expect(answer(await app.post('/api/v4/runners', { token: instanceToken, maximum_timeout: 599, description: 'd'.repeat(1025) }))).toEqual({
      status: 400,
      body: { message: { description: ['is too long (maximum is 1024 characters)'], maximum_timeout: ['needs to be at least 10 minutes'] } },
    });
  });

  it('treats an empty maximum_timeout as none', async () => {
    const { id } = await registerRunner(app, instanceToken, { maximum_timeout: '' });
    expect((await details(id)).body.maximum_timeout).toBeNull();
  });
});

describe('plan limits on registration', () => {
  const setLimit = (name: string, value: number) => app.put('/api/v4/application/plan_limits', { plan_name: 'default', [name]: value }, { token: 'admin' });
  afterAll(async () => {
    await setLimit('ci_registered_project_runners', 1000);
    await setLimit('ci_registered_group_runners', 1000);
  });

  it('refuses a project runner beyond ci_registered_project_runners, counting only recent runners', async () => {
    const project = await createProject(app, 'limited');
    const token = await registrationToken(app, { project: project.id });
    const first = await registerRunner(app, token);
    expect((await setLimit('ci_registered_project_runners', 1)).status).toBe(200);
    expect(answer(await app.post('/api/v4/runners', { token }))).toEqual({
      status: 400,
      body: { message: { 'runner_projects.base': ['Maximum number of ci registered project runners (1) exceeded'] } },
    });
    // Created and last contacted more than seven days ago: abandoned, so it no longer counts.
    await setTimes(app, first.id, { createdHoursAgo: 24 * 30, contactedHoursAgo: 24 * 8 });
    expect((await app.post('/api/v4/runners', { token })).status).toBe(201);
  });

  it('refuses a group runner beyond ci_registered_group_runners', async () => {
    const token = await registrationToken(app, { group: app.group.id });
    await registerRunner(app, token);
    await setLimit('ci_registered_group_runners', 1);
    expect(answer(await app.post('/api/v4/runners', { token }))).toEqual({
      status: 400,
      body: { message: { 'runner_namespaces.base': ['Maximum number of ci registered group runners (1) exceeded'] } },
    });
    await setLimit('ci_registered_group_runners', 0);
    expect((await app.post('/api/v4/runners', { token })).status).toBe(201);
  });

  it('lets only as many concurrent registrations through as the limit allows', async () => {
    const project = await createProject(app, 'raced');
    const token = await registrationToken(app, { project: project.id });
    await setLimit('ci_registered_project_runners', 2);
    const results = await Promise.all(Array.from({ length: 6 }, () => app.post('/api/v4/runners', { token })));
    expect(results.map((res) => res.status).sort()).toEqual([201, 201, 400, 400, 400, 400]);
    for (const res of results.filter((r) => r.status === 400)) {
      expect(res.body).toEqual({ message: { 'runner_projects.base': ['Maximum number of ci registered project runners (2) exceeded'] } });
    }
    const listed = await app.get(`/api/v4/projects/${project.id}/runners`, { token: 'owner', query: { type: 'project_type' } });
    expect(listed.body).toHaveLength(2);
  });
});

describe('runner authentication token endpoints', () => {
  it('verifies a token, marking the runner and its manager as contacted', async () => {
    const runner = await registerRunner(app, instanceToken);
    const res = await app.post('/api/v4/runners/verify', {
      token: runner.token,
      system_id: 's_abc',
      info: { version: '17.2.1', revision: 'abc123', platform: 'linux', architecture: 'amd64' },
    });
    expect(res).toMatchObject({ status: 200, body: { id: runner.id, token: runner.token, token_expires_at: null } });
    const body = (await details(runner.id)).body;
    expect(body).toMatchObject({ status: 'online', online: true, version: '17.2.1', revision: 'abc123', platform: 'linux', architecture: 'amd64' });
    expect(Date.parse(body.contacted_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('records one manager when a machine makes its first contact on several requests at once', async () => {
    const runner = await registerRunner(app, instanceToken);
    const verify = (version: string) => app.post('/api/v4/runners/verify', { token: runner.token, system_id: 's_raced', info: { version } });
    const results = await Promise.all(['1.0.0', '1.0.0', '1.0.0', '1.0.0'].map(verify));
    expect(results.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    expect((await verify('2.0.0')).status).toBe(200);
    expect((await details(runner.id)).body.version).toBe('2.0.0');
    const { database } = app.kernel;
    expect(await database.count(database.from(RunnerManagerEntity).where('runnerId', runner.id))).toBe(1);
  });

  it('answers 403 for an unknown token and 400 without one', async () => {
    expect(answer(await app.post('/api/v4/runners/verify', { token: 'fkrtr-nope' }))).toEqual({ status: 403, body: { message: '403 Forbidden' } });
    expect(answer(await app.post('/api/v4/runners/verify', {}))).toEqual({ status: 400, body: { error: 'token is missing' } });
    expect(answer(await app.post('/api/v4/runners/reset_authentication_token', { token: 'fkrtr-nope' }))).toEqual({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(answer(await app.delete('/api/v4/runners', { query: { token: 'fkrtr-nope' } }))).toEqual({ status: 403, body: { message: '403 Forbidden' } });
  });

  it('resets the authentication token with the current one', async () => {
    const runner = await registerRunner(app, instanceToken);
    const res = await app.post('/api/v4/runners/reset_authentication_token', { token: runner.token });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['token', 'token_expires_at']);
    expect(res.body.token).toMatch(/^fkrtr-t1_/);
    expect(res.body.token).not.toBe(runner.token);
    expect(answer(await app.post('/api/v4/runners/verify', { token: runner.token }))).toEqual({ status: 403, body: { message: '403 Forbidden' } });
    expect(await app.post('/api/v4/runners/verify', { token: res.body.token })).toMatchObject({ status: 200, body: { id: runner.id } });
  });

  it('unregisters a runner by its token', async () => {
    const runner = await registerRunner(app, instanceToken);
    const res = await app.delete('/api/v4/runners', { body: { token: runner.token } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(answer(await details(runner.id))).toEqual({ status: 404, body: { message: '404 Not found' } });
    expect(answer(await app.post('/api/v4/runners/verify', { token: runner.token }))).toEqual({ status: 403, body: { message: '403 Forbidden' } });
  });

  it('keeps a runner changed after If-Unmodified-Since', async () => {
    const runner = await registerRunner(app, instanceToken);
    const res = await app.request('DELETE', '/api/v4/runners', {
      body: { token: runner.token },
      headers: { 'If-Unmodified-Since': new Date(Date.now() - 3_600_000).toUTCString() },
    });
    expect(answer(res)).toEqual({ status: 412, body: { message: '412 Precondition Failed' } });
    expect((await details(runner.id)).status).toBe(200);
  });
});
