import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { ciVariablesPlugin } from '../plugin.js';

const BASE = '/api/v4/admin/ci/variables';
const item = (key: string) => `${BASE}/${key}`;

describe('instance variables', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ plugins: [planLimitsPlugin, ciVariablesPlugin] });
  });
  afterAll(() => app?.close());

  it('creates a variable without scope or hidden fields', async () => {
    const res = await app.post(
      BASE,
      { key: 'INSTANCE_VAR', value: 'value', description: 'shared', masked_and_hidden: true, environment_scope: 'prod' },
      { token: 'admin' },
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      variable_type: 'env_var',
      key: 'INSTANCE_VAR',
      value: 'value',
      protected: false,
      masked: false,
      raw: false,
      description: 'shared',
    });
    expect(Object.keys(res.body)).toEqual(['variable_type', 'key', 'value', 'protected', 'masked', 'raw', 'description']);
  });

  it('shows, lists, updates and deletes it', async () => {
    expect((await app.get(item('INSTANCE_VAR'), { token: 'admin' })).body.value).toBe('value');
    expect((await app.get(BASE, { token: 'admin' })).body.map((v: { key: string }) => v.key)).toEqual(['INSTANCE_VAR']);
    const updated = await app.put(item('INSTANCE_VAR'), { value: 'new-value', protected: true, variable_type: 'file' }, { token: 'admin' });
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({
      variable_type: 'file',
      key: 'INSTANCE_VAR',
      value: 'new-value',
      protected: true,
      masked: false,
      raw: false,
      description: 'shared',
    });
    expect((await app.delete(item('INSTANCE_VAR'), { token: 'admin' })).status).toBe(204);
    expect((await app.get(BASE, { token: 'admin' })).body).toEqual([]);
  });

  it('keeps keys unique across the instance', async () => {
    await app.post(BASE, { key: 'ONCE', value: 'x' }, { token: 'admin' });
    const res = await app.post(BASE, { key: 'ONCE', value: 'y' }, { token: 'admin' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { key: ['(ONCE) has already been taken'] } });
  });

  it('limits values to 10,000 characters', async () => {
    const res = await app.post(BASE, { key: 'HUGE', value: 'x'.repeat(10_001) }, { token: 'admin' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { value: ['The value of the provided variable exceeds the 10000 character limit'] } });
    expect((await app.post(BASE, { key: 'BIG', value: 'x'.repeat(10_000) }, { token: 'admin' })).status).toBe(201);
  });

  it('answers 404 with its own text', async () => {
    const res = await app.get(item('NOPE'), { token: 'admin' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 InstanceVariable Not Found' });
    expect((await app.put(item('NOPE'), { value: 'x' }, { token: 'admin' })).status).toBe(404);
    expect((await app.delete(item('NOPE'), { token: 'admin' })).status).toBe(404);
  });

  it('validates parameters', async () => {
    expect((await app.post(BASE, { value: 'x' }, { token: 'admin' })).body).toEqual({ error: 'key is missing' });
    expect((await app.post(BASE, { key: 'M', value: 'short', masked: true }, { token: 'admin' })).body).toEqual({ message: { value: ['is invalid'] } });
  });

  it('refuses a variable beyond ci_instance_level_variables, set through the plan limits API', async () => {
    const limit = await app.put('/api/v4/application/plan_limits', { plan_name: 'default', ci_instance_level_variables: 3 }, { token: 'admin' });
    expect(limit.status).toBe(200);
    expect((await app.post(BASE, { key: 'THIRD', value: 'x' }, { token: 'admin' })).status).toBe(201);
    const res = await app.post(BASE, { key: 'FOURTH', value: 'x' }, { token: 'admin' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { base: ['Maximum number of ci instance level variables (3) exceeded'] } });
    await app.put('/api/v4/application/plan_limits', { plan_name: 'default', ci_instance_level_variables: 0 }, { token: 'admin' });
    expect((await app.post(BASE, { key: 'FOURTH', value: 'x' }, { token: 'admin' })).status).toBe(201);
  });

  it('is for administrators only', async () => {
    for (const call of [
      () => app.get(BASE, { token: 'owner' }),
      () => app.post(BASE, {}, { token: 'owner' }),
      () => app.delete(item('ONCE'), { token: 'owner' }),
    ]) {
      const res = await call();
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    }
    const anonymous = await app.put(item('ONCE'), { value: 'x' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: '401 Unauthorized' });
  });
});
