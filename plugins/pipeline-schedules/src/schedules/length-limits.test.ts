import { TEXT_LIMIT } from '@forgekit/kernel';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchedule, NIGHTLY, schedulePlugins, schedulesPath, setScheduleLimit } from '../testing/schedule-fixtures.js';

let app: TestApp;
let path: string;

beforeAll(async () => {
  app = await createTestApp({ plugins: schedulePlugins() });
  path = schedulesPath(app);
  await setScheduleLimit(app, 0);
});
afterAll(() => app?.close());

const rails = (max: number) => `is too long (maximum is ${max} characters)`;
const filler = (length: number) => 'a'.repeat(length);
/** A valid cron of exactly `length` characters: a long minute list. */
const cronOf = (length: number) => `0${',0'.repeat((length - 10) / 2)} 01 * * *`;
/** An input value whose JSON is exactly `length` characters. */
const inputValueOf = (length: number) => filler(length - 2);

interface Limit {
  field: string;
  /** The key the error is reported under. */
  key: string;
  max: number;
  message: string;
  /** Request fields carrying a value of `length` characters. */
  fields: (length: number) => Record<string, unknown>;
  /** What the stored schedule shows for it. */
  shown: (length: number) => Record<string, unknown>;
}

const LIMITS: Limit[] = [
  {
    field: 'description',
    key: 'description',
    max: TEXT_LIMIT,
    message: rails(TEXT_LIMIT),
    fields: (length) => ({ description: filler(length) }),
    shown: (length) => ({ description: filler(length) }),
  },
  {
    field: 'ref',
    key: 'ref',
    max: TEXT_LIMIT,
    message: rails(TEXT_LIMIT),
    fields: (length) => ({ ref: `refs/heads/${filler(length - 11)}` }),
    shown: (length) => ({ ref: `refs/heads/${filler(length - 11)}` }),
  },
  {
    field: 'cron',
    key: 'cron',
    max: TEXT_LIMIT,
    message: rails(TEXT_LIMIT),
    fields: (length) => ({ cron: cronOf(length) }),
    shown: (length) => ({ cron: cronOf(length) }),
  },
  {
    field: 'input name',
    key: 'inputs.name',
    max: 255,
    message: rails(255),
    fields: (length) => ({ inputs: [{ name: filler(length), value: 'x' }] }),
    shown: (length) => ({ inputs: [{ name: filler(length), value: 'x' }] }),
  },
  {
    field: 'input value',
    key: 'inputs.value',
    max: 1024,
    message: 'exceeds max serialized size: 1024 characters',
    fields: (length) => ({ inputs: [{ name: 'big', value: inputValueOf(length) }] }),
    shown: (length) => ({ inputs: [{ name: 'big', value: inputValueOf(length) }] }),
  },
];

const idsOf = async () => ((await app.get(path, { token: 'developer', query: { per_page: '100' } })).body as { id: number }[]).map((s) => s.id);

describe.each(LIMITS)('schedule $field (at most $max)', ({ key, max, message, fields, shown }) => {
  it('keeps a value at the limit whole', async () => {
    const res = await app.post(path, { ...NIGHTLY, ...fields(max) }, { token: 'developer' });
    expect(res.status).toBe(201);
    const stored = await app.get(`${path}/${res.body.id}`, { token: 'developer' });
    expect(stored.body).toMatchObject(shown(max));
  });

  it('refuses a value one character over it and stores nothing', async () => {
    const before = await idsOf();
    const res = await app.post(path, { ...NIGHTLY, ...fields(max + (key === 'cron' ? 2 : 1)) }, { token: 'developer' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { [key]: [message] } });
    expect(await idsOf()).toEqual(before);
  });

  it('refuses an update one character over it and changes nothing', async () => {
    const schedule = await createSchedule(app);
    const res = await app.put(`${path}/${schedule.id}`, fields(max + (key === 'cron' ? 2 : 1)), { token: 'developer' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { [key]: [message] } });
    const stored = await app.get(`${path}/${schedule.id}`, { token: 'developer' });
    expect(stored.body).toMatchObject({ description: NIGHTLY.description, ref: 'refs/heads/main', cron: NIGHTLY.cron, inputs: [] });
  });
});

it('refuses a short ref past the bound without looking it up', async () => {
  const res = await app.post(path, { ...NIGHTLY, ref: filler(TEXT_LIMIT + 1) }, { token: 'developer' });
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ message: { ref: [rails(TEXT_LIMIT)] } });
});

describe('schedule variables', () => {
  let variablesPath: string;
  beforeAll(async () => {
    variablesPath = `${path}/${(await createSchedule(app)).id}/variables`;
  });
  const keysOf = async () =>
    ((await app.get(variablesPath.replace(/\/variables$/, ''), { token: 'developer' })).body.variables as { key: string }[]).map((v) => v.key);

  it.each([
    { field: 'key', max: 255, body: (length: number): Record<string, string> => ({ key: `K${filler(length - 1)}`, value: 'v' }) },
    { field: 'value', max: TEXT_LIMIT, body: (length: number): Record<string, string> => ({ key: `VALUE_${length}`, value: filler(length) }) },
  ])('keeps a $field of $max characters whole and refuses one more', async ({ field, max, body }) => {
    const kept = await app.post(variablesPath, body(max), { token: 'developer' });
    expect(kept.status).toBe(201);
    expect(kept.body[field]).toBe(body(max)[field]);
    const before = await keysOf();
    const refused = await app.post(variablesPath, body(max + 1), { token: 'developer' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ message: { [field]: [rails(max)] } });
    expect(await keysOf()).toEqual(before);
  });

  it('refuses an update of the value past the bound and keeps the old value', async () => {
    expect((await app.post(variablesPath, { key: 'KEPT', value: 'before' }, { token: 'developer' })).status).toBe(201);
    const res = await app.put(`${variablesPath}/KEPT`, { value: filler(TEXT_LIMIT + 1) }, { token: 'developer' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { value: [rails(TEXT_LIMIT)] } });
    expect((await app.get(`${variablesPath}/KEPT`, { token: 'developer' })).body.value).toBe('before');
  });
});
