import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_LIMIT } from '@forgekit/kernel';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { ciVariablesPlugin } from '../plugin.js';

type Owner = 'project' | 'group' | 'instance';

/** One limited attribute: what a request sends, and what the stored variable must show. */
interface Limit {
  owners: Owner[];
  field: string;
  max: number;
  message: (max: number) => string;
  /** The request body for a value of `text`, under `key`. */
  body: (key: string, text: string) => Record<string, unknown>;
  /** What the created variable shows for `text`. */
  shown: (text: string) => Record<string, unknown>;
}

const rails = (max: number) => `is too long (maximum is ${max} characters)`;
const filler = (length: number) => 'a'.repeat(length);

const LIMITS: Limit[] = [
  {
    owners: ['project', 'group', 'instance'],
    field: 'key',
    max: 255,
    message: rails,
    body: (_key, text) => ({ key: text, value: 'v' }),
    shown: (text) => ({ key: text }),
  },
  {
    owners: ['project', 'group'],
    field: 'value',
    max: TEXT_LIMIT,
    message: rails,
    body: (key, text) => ({ key, value: text }),
    shown: (text) => ({ value: text }),
  },
  {
    owners: ['instance'],
    field: 'value',
    max: 10_000,
    message: (max) => `The value of the provided variable exceeds the ${max} character limit`,
    body: (key, text) => ({ key, value: text }),
    shown: (text) => ({ value: text }),
  },
  {
    owners: ['project', 'group', 'instance'],
    field: 'description',
    max: 255,
    message: rails,
    body: (key, text) => ({ key, value: 'v', description: text }),
    shown: (text) => ({ description: text }),
  },
  {
    owners: ['project', 'group'],
    field: 'environment_scope',
    max: 255,
    message: rails,
    body: (key, text) => ({ key, value: 'v', environment_scope: text }),
    shown: (text) => ({ environment_scope: text }),
  },
];

describe('length limits of CI/CD variables', () => {
  let app: TestApp;
  const base: Record<Owner, string> = { project: '', group: '', instance: '/api/v4/admin/ci/variables' };
  const token: Record<Owner, string> = { project: 'maintainer', group: 'owner', instance: 'admin' };
  let serial = 0;
  const nextKey = () => `LIMIT_${++serial}`;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [planLimitsPlugin, ciVariablesPlugin] });
    base.project = `/api/v4/projects/${app.project.id}/variables`;
    base.group = `/api/v4/groups/${app.group.id}/variables`;
  });
  afterAll(() => app?.close());

  const keysOf = async (owner: Owner) =>
    ((await app.get(base[owner], { token: token[owner], query: { per_page: '100' } })).body as { key: string }[]).map((v) => v.key);

  const cases = LIMITS.flatMap((limit) => limit.owners.map((owner) => ({ owner, ...limit })));

  describe.each(cases)('$owner $field (at most $max)', ({ owner, field, max, message, body, shown }) => {
    it('keeps a value at the limit whole', async () => {
      const key = nextKey();
      const text = field === 'key' ? `K${filler(max - 1)}` : filler(max);
      const res = await app.post(base[owner], body(key, text), { token: token[owner] });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject(shown(text));
      const stored = await app.get(base[owner], { token: token[owner], query: { per_page: '100' } });
      expect(stored.body).toContainEqual(expect.objectContaining(shown(text)));
    });

    it('refuses a value one character over it and stores nothing', async () => {
      const key = nextKey();
      const before = await keysOf(owner);
      const text = field === 'key' ? `K${filler(max)}` : filler(max + 1);
      const res = await app.post(base[owner], body(key, text), { token: token[owner] });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { [field]: [message(max)] } });
      expect(await keysOf(owner)).toEqual(before);
    });

    if (field !== 'key') {
      it('refuses an update one character over it and changes nothing', async () => {
        const key = nextKey();
        expect((await app.post(base[owner], { key, value: 'before' }, { token: token[owner] })).status).toBe(201);
        const { key: _ignored, ...changes } = body(key, filler(max + 1));
        const res = await app.put(`${base[owner]}/${key}`, changes, { token: token[owner] });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: { [field]: [message(max)] } });
        const after = await app.get(`${base[owner]}/${key}`, { token: token[owner] });
        expect(after.body).toMatchObject({ value: 'before' });
        if (field !== 'value') expect(after.body[field]).not.toBe(filler(max + 1));
      });
    }
  });

  it('counts characters, not UTF-16 units', async () => {
    const text = '😀'.repeat(255);
    const res = await app.post(base.project, { key: nextKey(), value: 'v', description: text }, { token: 'maintainer' });
    expect(res.status).toBe(201);
    expect(res.body.description).toBe(text);
  });
});
