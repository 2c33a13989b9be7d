import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { planLimitsPlugin, planLimitsServiceRef } from '@forgekit/plugin-plan-limits';
import { ciVariablesPlugin } from '../plugin.js';
import { CiVariableEntity } from '../entities/ci-variable.js';

describe('group variables', () => {
  let app: TestApp;
  let base: string;
  const item = (key: string) => `${base}/${key}`;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [planLimitsPlugin, ciVariablesPlugin] });
    base = `/api/v4/groups/${app.group.id}/variables`;
  });
  afterAll(() => app?.close());

  it('creates, shows, lists, updates and deletes a variable as the group owner', async () => {
    const created = await app.post(base, { key: 'GROUP_VAR', value: 'PROTECTED_VALUE_2', protected: true, masked: true, raw: true }, { token: 'owner' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      variable_type: 'env_var',
      key: 'GROUP_VAR',
      value: 'PROTECTED_VALUE_2',
      hidden: false,
      protected: true,
      masked: true,
      raw: true,
      environment_scope: '*',
      description: null,
    });

    expect((await app.get(item('GROUP_VAR'), { token: 'owner' })).body).toEqual(created.body);
    const list = await app.get(base, { token: 'owner' });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([created.body]);

    const updated = await app.put(item('GROUP_VAR'), { variable_type: 'file', value: 'VALUE_1_UP', description: 'updated' }, { token: 'owner' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ variable_type: 'file', value: 'VALUE_1_UP', description: 'updated', masked: true });

    expect((await app.delete(item('GROUP_VAR'), { token: 'owner' })).status).toBe(204);
    expect((await app.get(base, { token: 'owner' })).body).toEqual([]);
  });

  it('finds the group by its path', async () => {
    expect((await app.get('/api/v4/groups/test-group/variables', { token: 'owner' })).status).toBe(200);
  });

  it('hides masked and hidden values', async () => {
    const res = await app.post(base, { key: 'GROUP_HIDDEN', value: 'PROTECTED_VALUE_2', masked_and_hidden: true }, { token: 'owner' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ value: null, hidden: true, masked: true });
    const refused = await app.put(item('GROUP_HIDDEN'), { masked: false, value: 'VALUE_1_UP' }, { token: 'owner' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { base: ['The visibility setting cannot be changed for masked and hidden variables.'] } });
  });

  it('uses its own not-found text', async () => {
    for (const res of [
      await app.get(item('NOPE'), { token: 'owner' }),
      await app.put(item('NOPE'), { value: 'x' }, { token: 'owner' }),
      await app.delete(item('NOPE'), { token: 'owner' }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 GroupVariable Not Found' });
    }
  });

  it('rejects duplicates and bad masked values', async () => {
    await app.post(base, { key: 'DUP', value: 'x' }, { token: 'owner' });
    expect((await app.post(base, { key: 'DUP', value: 'y' }, { token: 'owner' })).body).toEqual({ message: { key: ['(DUP) has already been taken'] } });
    const masked = await app.put(item('DUP'), { value: 'shrt', masked: true }, { token: 'owner' });
    expect(masked.status).toBe(400);
    expect(masked.body).toEqual({ message: { value: ['is invalid'] } });
  });

  describe('a key in several scopes', () => {
    beforeAll(async () => {
      await app.post(base, { key: 'MULTI', value: 'first', environment_scope: 'staging' }, { token: 'owner' });
      await app.post(base, { key: 'MULTI', value: 'second', environment_scope: 'production' }, { token: 'owner' });
    });

    it('answers 409 on GET and DELETE without a filter', async () => {
      const res = await app.get(item('MULTI'), { token: 'owner' });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'" });
      expect((await app.delete(item('MULTI'), { token: 'owner' })).status).toBe(409);
    });

    it('updates the first such variable when PUT has no filter, as GitLab does', async () => {
      const res = await app.put(item('MULTI'), { value: 'changed' }, { token: 'owner' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ environment_scope: 'staging', value: 'changed' });
    });

    it('updates the filtered one when PUT has a filter', async () => {
      const res = await app.put(item('MULTI'), { value: 'prod', filter: { environment_scope: 'production' } }, { token: 'owner' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ environment_scope: 'production', value: 'prod' });
      const unmatched = await app.put(item('MULTI'), { value: 'x', filter: { environment_scope: 'nowhere' } }, { token: 'owner' });
      expect(unmatched.status).toBe(404);
      expect(unmatched.body).toEqual({ message: '404 GroupVariable Not Found' });
    });

    it('reads and deletes with a filter', async () => {
      const read = await app.get(item('MULTI'), { token: 'owner', query: { 'filter[environment_scope]': 'production' } });
      expect(read.body.value).toBe('prod');
      expect((await app.delete(item('MULTI'), { token: 'owner', query: { 'filter[environment_scope]': 'staging' } })).status).toBe(204);
    });
  });

  it('answers 412 to a delete when the variable changed after If-Unmodified-Since', async () => {
    await app.post(base, { key: 'CONDITIONAL', value: 'x' }, { token: 'owner' });
    const stale = await app.delete(item('CONDITIONAL'), { token: 'owner', headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 2015 00:00:00 GMT' } });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({ message: '412 Precondition Failed' });
    const fresh = await app.delete(item('CONDITIONAL'), { token: 'owner', headers: { 'If-Unmodified-Since': new Date(Date.now() + 60_000).toUTCString() } });
    expect(fresh.status).toBe(204);
  });

  it('refuses a variable beyond group_ci_variables', async () => {
    const group = await app.post('/api/v4/groups', { name: 'Limited Group', path: 'limited-group' }, { token: 'owner' });
    expect(group.status).toBe(201);
    const path = `/api/v4/groups/${group.body.id}/variables`;
    await app.kernel.resolve(planLimitsServiceRef).set('group_ci_variables', 1);
    try {
      expect((await app.post(path, { key: 'ONE', value: 'x' }, { token: 'owner' })).status).toBe(201);
      const res = await app.post(path, { key: 'TOO_MANY_VARS', value: 'too many' }, { token: 'owner' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { base: ['Maximum number of group ci variables (1) exceeded'] } });
    } finally {
      await app.kernel.resolve(planLimitsServiceRef).set('group_ci_variables', 30000);
    }
  });

  describe('permissions', () => {
    const calls: [string, (token: string | null) => Promise<{ status: number; body: unknown }>][] = [
      ['list', (token) => app.get(base, { token })],
      ['get', (token) => app.get(item('DUP'), { token })],
      ['create', (token) => app.post(base, {}, { token })],
      ['update', (token) => app.put(item('DUP'), { value: 'x' }, { token })],
      ['delete', (token) => app.delete(item('DUP'), { token })],
    ];

    it.each(calls)('%s: 403 for a maintainer', async (_name, call) => {
      const res = await call('maintainer');
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    });

    it.each(calls)('%s: 401 for an anonymous caller', async (_name, call) => {
      expect((await call(null)).status).toBe(401);
    });

    it.each(calls)('%s: 404 for a non-member of a private group', async (_name, call) => {
      const res = await call('nonMember');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Group Not Found' });
    });

    it('lets an administrator in', async () => {
      expect((await app.get(item('DUP'), { token: 'admin' })).status).toBe(200);
    });
  });

  it("drops a group's variables when the group is deleted", async () => {
    const group = await app.post('/api/v4/groups', { name: 'Doomed Group', path: 'doomed-group' }, { token: 'owner' });
    await app.post(`/api/v4/groups/${group.body.id}/variables`, { key: 'DOOMED', value: 'x' }, { token: 'owner' });
    const { database } = app.kernel;
    const count = () => database.count(database.from(CiVariableEntity).where({ ownerType: 'group', ownerId: group.body.id }));
    expect(await count()).toBe(1);
    expect((await app.delete(`/api/v4/groups/${group.body.id}`, { token: 'owner' })).status).toBe(202);
    expect(await count()).toBe(0);
  });
});
