import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { answer, insufficientScope, registerRunner, registrationToken, setTimes, startRunnersApp, tokenWithScopes } from '../testing/runner-fixtures.js';
import { buildRunnerWorld, descriptions, type RunnerWorld } from '../testing/runner-world.js';

let app: TestApp;
let world: RunnerWorld;
beforeAll(async () => {
  app = await startRunnersApp();
  world = await buildRunnerWorld(app);
});
afterAll(() => app.close());

describe('GET /runners', () => {
  it('lists the runners the user owns, with pagination headers', async () => {
    const res = await app.get('/api/v4/runners', { token: 'owner' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).toBe('4');
    expect(res.headers.get('x-page')).toBe('1');
    expect(descriptions(res.body)).toEqual(['Project runner', 'Two projects runner', 'Group runner A', 'Group runner B']);
    expect(res.body[0]).toEqual({
      id: world.projectRunner.id,
      description: 'Project runner',
      ip_address: '',
      active: true,
      paused: false,
      is_shared: false,
      runner_type: 'project_type',
      name: null,
      online: false,
      created_at: expect.any(String),
      status: 'never_contacted',
      job_execution_status: 'idle',
    });
  });

  it('gives Maintainers their projects’ runners and others nothing', async () => {
    expect(descriptions((await app.get('/api/v4/runners', { token: 'maintainer' })).body)).toEqual(['Project runner', 'Two projects runner']);
    expect((await app.get('/api/v4/runners', { token: 'developer' })).body).toEqual([]);
    expect(answer(await app.get('/api/v4/runners', { token: null }))).toEqual({ status: 401, body: { message: '401 Unauthorized' } });
  });

  it('accepts only status scopes', async () => {
    expect(answer(await app.get('/api/v4/runners', { token: 'owner', query: { scope: 'specific' } }))).toEqual({
      status: 400,
      body: { message: 'Scope contains invalid value' },
    });
    expect(answer(await app.get('/api/v4/runners', { token: 'owner', query: { scope: 'unknown' } }))).toEqual({
      status: 400,
      body: { error: 'scope does not have a valid value' },
    });
    expect(descriptions((await app.get('/api/v4/runners', { token: 'owner', query: { scope: 'never_contacted' } })).body)).toHaveLength(4);
  });

  it('refuses manage_runner and create_runner tokens', async () => {
    for (const scope of ['manage_runner', 'create_runner']) {
      const token = await tokenWithScopes(app, 'owner', [scope]);
      expect(answer(await app.get('/api/v4/runners', { token }))).toEqual(insufficientScope('api read_api'));
    }
    expect((await app.get('/api/v4/runners', { token: await tokenWithScopes(app, 'owner', ['read_api']) })).status).toBe(200);
  });
});

describe('GET /runners/all', () => {
  it('lists every runner for administrators, ordered by id', async () => {
    const res = await app.get('/api/v4/runners/all', { token: 'admin' });
    expect(res.status).toBe(200);
    expect(descriptions(res.body)).toEqual(['Shared runner', 'Project runner', 'Two projects runner', 'Group runner A', 'Group runner B']);
    expect(res.body.map((r: { is_shared: boolean }) => r.is_shared)).toEqual([true, false, false, false, false]);
  });

  it('is refused to everyone else', async () => {
    expect(answer(await app.get('/api/v4/runners/all', { token: 'owner' }))).toEqual({ status: 403, body: { message: '403 Forbidden' } });
    expect(answer(await app.get('/api/v4/runners/all', { token: null }))).toEqual({ status: 401, body: { message: '401 Unauthorized' } });
  });

  it('filters by the deprecated scope, type and paused', async () => {
    const list = async (query: Record<string, string>) => descriptions((await app.get('/api/v4/runners/all', { token: 'admin', query })).body);
    expect(await list({ scope: 'shared' })).toEqual(['Shared runner']);
    expect(await list({ scope: 'specific' })).toEqual(['Project runner', 'Two projects runner', 'Group runner A', 'Group runner B']);
    expect(await list({ scope: 'group_type' })).toEqual(['Group runner A', 'Group runner B']);
    expect(await list({ type: 'project_type' })).toEqual(['Project runner', 'Two projects runner']);
    expect(await list({ type: 'instance_type', scope: 'specific' })).toEqual([]);
    expect(await list({ paused: 'true' })).toEqual([]);
    expect(await list({ paused: 'false' })).toHaveLength(5);
  });

  it('rejects unknown filter values', async () => {
    const bad = (query: Record<string, string>) => app.get('/api/v4/runners/all', { token: 'admin', query });
    expect(answer(await bad({ scope: 'unknown' }))).toEqual({ status: 400, body: { error: 'scope does not have a valid value' } });
    expect(answer(await bad({ type: 'bogus' }))).toEqual({ status: 400, body: { error: 'type does not have a valid value' } });
    expect(answer(await bad({ status: 'bogus' }))).toEqual({ status: 400, body: { error: 'status does not have a valid value' } });
    expect(answer(await bad({ paused: 'maybe' }))).toEqual({ status: 400, body: { error: 'paused is invalid' } });
    expect(answer(await bad({ version_prefix: 'V15' }))).toEqual({ status: 400, body: { error: 'version_prefix is invalid' } });
  });

  it('paginates', async () => {
    const res = await app.get('/api/v4/runners/all', { token: 'admin', query: { per_page: 2, page: 2 } });
    expect(descriptions(res.body)).toEqual(['Two projects runner', 'Group runner A']);
    expect(res.headers.get('x-total')).toBe('5');
    expect(res.headers.get('x-total-pages')).toBe('3');
    expect(res.headers.get('x-next-page')).toBe('3');
    expect(res.headers.get('x-prev-page')).toBe('1');
  });
});

describe('tag and version filters', () => {
  let tagged: { id: number }[];
  beforeAll(async () => {
    const token = await registrationToken(app, { instance: true });
    tagged = [
      await registerRunner(app, token, { description: 'tag1 and tag2', tag_list: ['tag1', 'tag2'] }),
      await registerRunner(app, token, { description: 'tag2 only', tag_list: 'tag2' }),
    ];
    const v15 = await registerRunner(app, token, { description: 'version 15' });
    const v16 = await registerRunner(app, token, { description: 'version 16' });
    await app.post('/api/v4/runners/verify', { token: v15.token, system_id: 'm1', info: { version: '15.0.3' } });
    await app.post('/api/v4/runners/verify', { token: v16.token, system_id: 'm1', info: { version: '16.0.1' } });
    await app.post('/api/v4/runners/verify', { token: v16.token, system_id: 'm2', info: { version: '16.1.0' } });
  });
  afterAll(async () => {
    for (const { id } of tagged) await app.delete(`/api/v4/runners/${id}`, { token: 'admin' });
  });

  const list = async (query: Record<string, string | string[]>) =>
    descriptions((await app.get('/api/v4/runners/all', { token: 'admin', query: query as never })).body);

  it('keeps runners that have every listed tag', async () => {
    expect(await list({ tag_list: 'tag1,tag2' })).toEqual(['tag1 and tag2']);
    expect(await list({ tag_list: ['tag2'] })).toEqual(['tag1 and tag2', 'tag2 only']);
    expect(await list({ tag_list: 'tag3' })).toEqual([]);
  });

  it('keeps runners with a manager whose version starts with the prefix', async () => {
    expect(await list({ version_prefix: '15.0' })).toEqual(['version 15']);
    expect(await list({ version_prefix: '16' })).toEqual(['version 16']);
    expect(await list({ version_prefix: '16.1.' })).toEqual(['version 16']);
    expect(await list({ version_prefix: '25' })).toEqual([]);
  });
});

describe('status', () => {
  const HOURS = { day: 24, week: 24 * 7 };
  let runners: Record<'online' | 'offline' | 'staleContacted' | 'staleNever' | 'never' | 'paused', number>;
  beforeAll(async () => {
    const token = await registrationToken(app, { instance: true });
    const make = async (description: string, times: Parameters<typeof setTimes>[2], extra: Record<string, unknown> = {}) => {
      const { id } = await registerRunner(app, token, { description, ...extra });
      await setTimes(app, id, times);
      return id;
    };
    runners = {
      online: await make('online', { contactedHoursAgo: 1 }),
      offline: await make('offline', { createdHoursAgo: HOURS.day * 3, contactedHoursAgo: 3 }),
      staleContacted: await make('stale contacted', { createdHoursAgo: HOURS.week * 3, contactedHoursAgo: HOURS.week + 1 }),
      staleNever: await make('stale never', { createdHoursAgo: HOURS.week + 1, contactedHoursAgo: null }),
      never: await make('never', { createdHoursAgo: HOURS.day }),
      paused: await make('paused', { contactedHoursAgo: 1 }, { paused: true }),
    };
  });
  afterAll(async () => {
    for (const id of Object.values(runners)) await app.delete(`/api/v4/runners/${id}`, { token: 'admin' });
  });

  it('derives status and online from contacted_at with stale first and paused before online', async () => {
    const body = (await app.get('/api/v4/runners/all', { token: 'admin', query: { per_page: 100 } })).body as { id: number; status: string; online: boolean }[];
    const of = (id: number) => body.find((runner) => runner.id === id)!;
    expect(of(runners.online)).toMatchObject({ status: 'online', online: true });
    expect(of(runners.offline)).toMatchObject({ status: 'offline', online: false });
    expect(of(runners.staleContacted)).toMatchObject({ status: 'stale', online: false });
    expect(of(runners.staleNever)).toMatchObject({ status: 'stale', online: false });
    expect(of(runners.never)).toMatchObject({ status: 'never_contacted', online: false });
    expect(of(runners.paused)).toMatchObject({ status: 'paused', online: true });
  });

  it('filters by status the way GitLab does', async () => {
    const only = async (status: string) => {
      const body = (await app.get('/api/v4/runners/all', { token: 'admin', query: { status, per_page: 100 } })).body as { id: number }[];
      const ours = new Set(Object.values(runners));
      return body.map((runner) => runner.id).filter((id) => ours.has(id));
    };
    expect(await only('online')).toEqual([runners.online, runners.paused]);
    // The offline filter includes stale runners that were once contacted.
    expect(await only('offline')).toEqual([runners.offline, runners.staleContacted]);
    expect(await only('stale')).toEqual([runners.staleContacted, runners.staleNever]);
    expect(await only('never_contacted')).toEqual([runners.staleNever, runners.never]);
    expect(await only('paused')).toEqual([runners.paused]);
    expect(await only('active')).toEqual([runners.online, runners.offline, runners.staleContacted, runners.staleNever, runners.never]);
  });
});

describe('ip_address', () => {
  it('is an empty string wherever a runner is shown, even after it reported an address', async () => {
    const runner = await registerRunner(app, await registrationToken(app, { project: app.project.id }), { description: 'Addressed runner' });
    expect((await app.post('/api/v4/runners/verify', { token: runner.token, system_id: 's_addressed' })).status).toBe(200);
    const projectPath = `/api/v4/projects/${app.project.id}/runners`;
    const shown = [
      ...(await app.get('/api/v4/runners', { token: 'maintainer', query: { per_page: 100 } })).body,
      ...(await app.get('/api/v4/runners/all', { token: 'admin', query: { per_page: 100 } })).body,
      ...(await app.get(projectPath, { token: 'maintainer', query: { per_page: 100 } })).body,
      ...(await app.get(`/api/v4/groups/${app.group.id}/runners`, { token: 'owner', query: { per_page: 100 } })).body,
      (await app.get(`/api/v4/runners/${runner.id}`, { token: 'maintainer' })).body,
      (await app.put(`/api/v4/runners/${runner.id}`, { description: 'Still addressed' }, { token: 'maintainer' })).body,
      (await app.post(`/api/v4/projects/${world.project2.id}/runners`, { runner_id: runner.id }, { token: 'owner' })).body,
    ] as { id: number; ip_address: unknown }[];
    // Every view but the group's list, which holds group runners only.
    expect(shown.filter((item) => item.id === runner.id)).toHaveLength(6);
    expect(shown.some((item) => item.id === world.groupRunnerA.id)).toBe(true);
    for (const item of shown) expect(item.ip_address).toBe('');
    expect((await app.delete(`/api/v4/projects/${world.project2.id}/runners/${runner.id}`, { token: 'owner' })).status).toBe(204);
    expect((await app.delete(`/api/v4/runners/${runner.id}`, { token: 'admin' })).status).toBe(204);
  });
});
