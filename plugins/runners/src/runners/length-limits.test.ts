import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { RunnerEntity } from '../entities/runner.js';
import { RunnerManagerEntity } from '../entities/runner-manager.js';
import { registrationToken, registerRunner, startRunnersApp } from '../testing/runner-fixtures.js';

let app: TestApp;
let instanceToken: string;
beforeAll(async () => {
  app = await startRunnersApp();
  instanceToken = await registrationToken(app, { instance: true });
});
afterAll(() => app.close());

const rails = (max: number) => `is too long (maximum is ${max} characters)`;
/** Characters outside the Basic Multilingual Plane: each counts once, as GitLab counts them. */
const filler = (length: number) => '😀'.repeat(length);
const details = (id: number) => app.get(`/api/v4/runners/${id}`, { token: 'admin' });
const runnerCount = () => app.kernel.database.count(app.kernel.database.from(RunnerEntity));

/** Runner settings, checked on registration and on PUT /runners/:id. */
const SETTING_LIMITS = [
  {
    field: 'description',
    key: 'description',
    max: 1024,
    body: (length: number) => ({ description: filler(length) }),
    shown: (length: number) => ({ description: filler(length) }),
  },
  {
    field: 'maintenance_note',
    key: 'maintenance_note',
    max: 1024,
    body: (length: number) => ({ maintenance_note: filler(length) }),
    shown: (length: number) => ({ maintenance_note: filler(length) }),
  },
  {
    field: 'name',
    key: 'name',
    max: 256,
    body: (length: number) => ({ info: { name: filler(length) } }),
    shown: (length: number) => ({ name: filler(length) }),
  },
  {
    field: 'a tag',
    key: 'tags.name',
    max: 255,
    body: (length: number) => ({ tag_list: [filler(length)] }),
    shown: (length: number) => ({ tag_list: [filler(length)] }),
  },
];

describe.each(SETTING_LIMITS)('runner $field (at most $max characters)', ({ field, key, max, body, shown }) => {
  it('keeps a value at the limit whole', async () => {
    const { id } = await registerRunner(app, instanceToken, body(max));
    expect((await details(id)).body).toMatchObject(shown(max));
  });

  it('refuses a registration one character over it and stores nothing', async () => {
    const before = await runnerCount();
    const res = await app.post('/api/v4/runners', { token: instanceToken, ...body(max + 1) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { [key]: [rails(max)] } });
    expect(await runnerCount()).toBe(before);
  });

  if (field !== 'name') {
    it('refuses an update one character over it and changes nothing', async () => {
      const { id } = await registerRunner(app, instanceToken, { description: 'before' });
      const res = await app.put(`/api/v4/runners/${id}`, body(max + 1), { token: 'admin' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { [key]: [rails(max)] } });
      expect((await details(id)).body).toMatchObject({ description: 'before', maintenance_note: null, tag_list: [] });
    });
  }
});

/** What a runner reports about its machine when it verifies itself. */
const MANAGER_LIMITS = [
  { key: 'system_xid', max: 64, body: (length: number) => ({ system_id: 's'.repeat(length) }) },
  { key: 'version', max: 2048, body: (length: number) => ({ system_id: 'm1', info: { version: 'v'.repeat(length) } }) },
  { key: 'revision', max: 255, body: (length: number) => ({ system_id: 'm1', info: { revision: 'r'.repeat(length) } }) },
  { key: 'platform', max: 255, body: (length: number) => ({ system_id: 'm1', info: { platform: 'p'.repeat(length) } }) },
  { key: 'architecture', max: 255, body: (length: number) => ({ system_id: 'm1', info: { architecture: 'a'.repeat(length) } }) },
];

describe.each(MANAGER_LIMITS)('runner manager $key (at most $max characters)', ({ key, max, body }) => {
  const managers = (runnerId: number) => app.kernel.database.rows(app.kernel.database.from(RunnerManagerEntity).where('runnerId', runnerId));
  const property = key === 'system_xid' ? 'systemXid' : (key as 'version' | 'revision' | 'platform' | 'architecture');

  it('keeps a value at the limit whole', async () => {
    const runner = await registerRunner(app, instanceToken);
    const res = await app.post('/api/v4/runners/verify', { token: runner.token, ...body(max) });
    expect(res.status).toBe(200);
    const [manager] = await managers(runner.id);
    expect(manager![property]).toHaveLength(max);
    if (key !== 'system_xid') expect((await details(runner.id)).body[key]).toHaveLength(max);
  });

  it('refuses a value one character over it and records nothing', async () => {
    const runner = await registerRunner(app, instanceToken);
    const res = await app.post('/api/v4/runners/verify', { token: runner.token, ...body(max + 1) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { [key]: [rails(max)] } });
    expect(await managers(runner.id)).toEqual([]);
    expect((await details(runner.id)).body.contacted_at).toBeNull();
  });
});
