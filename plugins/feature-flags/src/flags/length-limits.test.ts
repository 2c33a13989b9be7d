import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_LIMIT } from '@forgekit/kernel';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { featureFlagsPlugin } from '../plugin.js';

const filler = (length: number) => 'a'.repeat(length);
/** Comma-separated user ids whose `{"userIds":"..."}` JSON is exactly `length` characters. */
function userIdsOf(length: number) {
  const text = length - '{"userIds":""}'.length;
  const ids = Array.from({ length: Math.floor(text / 9) }, (_, index) => `u${String(index).padStart(7, '0')}`);
  const joined = ids.join(',');
  return `${joined}${joined.length < text ? `,${filler(text - joined.length - 1)}` : ''}`;
}

describe('length limits of feature flags', () => {
  let app: TestApp;
  let flags: string;
  let lists: string;
  let serial = 0;
  const nextName = () => `flag-${++serial}`;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [planLimitsPlugin, featureFlagsPlugin] });
    flags = `/api/v4/projects/${app.project.id}/feature_flags`;
    lists = `/api/v4/projects/${app.project.id}/feature_flags_user_lists`;
  });
  afterAll(() => app?.close());

  const flagNames = async () => ((await app.get(flags, { token: 'developer', query: { per_page: '100' } })).body as { name: string }[]).map((f) => f.name);

  /** Flag attributes, reported as full messages in an array. */
  const FLAG_LIMITS = [
    {
      field: 'name',
      max: 63,
      message: 'Name is too long (maximum is 63 characters)',
      body: (_name: string, length: number) => ({ name: `a${filler(length - 1)}` }),
      shown: (length: number) => ({ name: `a${filler(length - 1)}` }),
    },
    {
      field: 'description',
      max: 255,
      message: 'Description is too long (maximum is 255 characters)',
      body: (name: string, length: number) => ({ name, description: filler(length) }),
      shown: (length: number) => ({ description: filler(length) }),
    },
    {
      field: 'scope environment_scope',
      max: 255,
      message: 'Strategies scopes environment scope is too long (maximum is 255 characters)',
      body: (name: string, length: number) => ({ name, strategies: [{ name: 'default', scopes: [{ environment_scope: filler(length) }] }] }),
      shown: (length: number) => ({ strategies: [expect.objectContaining({ scopes: [expect.objectContaining({ environment_scope: filler(length) })] })] }),
    },
    {
      field: 'strategy parameters',
      max: TEXT_LIMIT,
      message: `Strategies parameters is too long (maximum is ${TEXT_LIMIT} characters)`,
      body: (name: string, length: number) => ({ name, strategies: [{ name: 'userWithId', parameters: { userIds: userIdsOf(length) } }] }),
      shown: (length: number) => ({ strategies: [expect.objectContaining({ parameters: { userIds: userIdsOf(length) } })] }),
    },
  ];

  describe.each(FLAG_LIMITS)('flag $field (at most $max)', ({ max, message, body, shown }) => {
    it('keeps a value at the limit whole', async () => {
      const res = await app.post(flags, body(nextName(), max), { token: 'developer' });
      expect(res.status).toBe(201);
      const stored = await app.get(`${flags}/${res.body.name}`, { token: 'developer' });
      expect(stored.body).toMatchObject(shown(max));
    });

    it('refuses a value one character over it and stores nothing', async () => {
      const before = await flagNames();
      const res = await app.post(flags, body(nextName(), max + 1), { token: 'developer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: [message] });
      expect(await flagNames()).toEqual(before);
    });

    it('refuses an update one character over it and changes nothing', async () => {
      const name = nextName();
      const created = await app.post(flags, { name }, { token: 'developer' });
      expect(created.status).toBe(201);
      const res = await app.put(`${flags}/${name}`, body(name, max + 1), { token: 'developer' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: [message] });
      expect((await app.get(`${flags}/${name}`, { token: 'developer' })).body).toMatchObject({ name, description: null, strategies: [] });
    });
  });

  describe('user list user_xids (at most 1,000,000 characters)', () => {
    const xidsOf = (length: number) => userIdsOf(length + '{"userIds":""}'.length);
    const listNames = async () => ((await app.get(lists, { token: 'developer', query: { per_page: '100' } })).body as { name: string }[]).map((l) => l.name);

    it('keeps a list at the limit whole', async () => {
      const res = await app.post(lists, { name: 'at-limit', user_xids: xidsOf(TEXT_LIMIT) }, { token: 'developer' });
      expect(res.status).toBe(201);
      expect((await app.get(`${lists}/${res.body.iid}`, { token: 'developer' })).body.user_xids).toBe(xidsOf(TEXT_LIMIT));
    });

    it('refuses a list one character over it, on create and update, and stores nothing', async () => {
      const before = await listNames();
      const refused = await app.post(lists, { name: 'over-limit', user_xids: xidsOf(TEXT_LIMIT + 1) }, { token: 'developer' });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ message: [`User xids is too long (maximum is ${TEXT_LIMIT} characters)`] });
      expect(await listNames()).toEqual(before);

      const kept = await app.post(lists, { name: 'kept', user_xids: 'a,b' }, { token: 'developer' });
      const update = await app.put(`${lists}/${kept.body.iid}`, { user_xids: xidsOf(TEXT_LIMIT + 1) }, { token: 'developer' });
      expect(update.status).toBe(400);
      expect(update.body).toEqual({ message: [`User xids is too long (maximum is ${TEXT_LIMIT} characters)`] });
      expect((await app.get(`${lists}/${kept.body.iid}`, { token: 'developer' })).body.user_xids).toBe('a,b');
    });
  });
});
