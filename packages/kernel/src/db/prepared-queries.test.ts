import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './open-database.js';
import { toNumberedPlaceholders } from './prepared-queries.js';

describe('toNumberedPlaceholders', () => {
  it('numbers placeholders outside quotes', () => {
    expect(toNumberedPlaceholders("select * from t where a = ? and b = '?' and c in (?, ?)")).toBe(
      "select * from t where a = $1 and b = '?' and c in ($2, $3)",
    );
  });
});

describe('prepared queries', () => {
  let database: Database;
  let dataDir: string;
  const baseUrl = process.env.FORGEKIT_TEST_DATABASE_URL;
  const pgName = `forgekit_prepared_${process.pid}_${Date.now()}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-prepared-'));
    let url = ':memory:';
    if (baseUrl) {
      await admin(`CREATE DATABASE ${pgName}`);
      const parsed = new URL(baseUrl);
      parsed.pathname = `/${pgName}`;
      url = parsed.toString();
    }
    database = await openDatabase({ url, dataDir, entities: [] });
    await database.legacy.knex.schema.createTable('items', (t) => {
      t.increments('id');
      t.string('name');
    });
    await database.legacy.knex('items').insert([{ name: 'a' }, { name: 'b' }]);
  });
  afterAll(async () => {
    await database.close();
    if (baseUrl) await admin(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  });

  const names = (name: string) => database.legacy.knex('items').select('id', 'name').where('name', name);
  const shape = { id: 'number', name: 'string' } as const;

  it('reads rows with bound params, reusing the statement', async () => {
    const seen: string[] = [];
    const stop = database.observeReads((sql) => seen.push(sql));
    expect(await database.legacy.values(names('a'), shape)).toEqual([{ id: 1, name: 'a' }]);
    expect(await database.legacy.values(names('b'), shape)).toEqual([{ id: 2, name: 'b' }]);
    expect(await database.legacy.values(names('c'), shape)).toEqual([]);
    stop();
    expect(new Set(seen).size).toBe(1);
  });

  it('shows every prepared read to its observers until they unsubscribe', async () => {
    const seen: string[] = [];
    const stop = database.observeReads((sql) => seen.push(sql));
    await database.legacy.values(names('a'), shape);
    await database.legacy.count(database.legacy.knex('items'));
    stop();
    await database.legacy.values(names('a'), shape);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toContain('items');
    expect(seen[1]).toContain('count(*)');
  });

  it('decodes computed values as the shape names them, the same on both engines', async () => {
    const grouped = database.legacy.knex('items').select('name').count({ count: '*' }).max({ top: 'id' }).groupBy('name').orderBy('name');
    expect(await database.legacy.values(grouped, { name: 'string', count: 'number', top: 'number' })).toEqual([
      { name: 'a', count: 1, top: 1 },
      { name: 'b', count: 1, top: 2 },
    ]);
    const flags = database.legacy.knex('items').select(database.legacy.knex.raw("case when name = 'a' then 1 else 0 end as first")).orderBy('id');
    expect(await database.legacy.values(flags, { first: 'boolean' })).toEqual([{ first: true }, { first: false }]);
  });

  it('refuses a column the shape does not name', async () => {
    await expect(database.legacy.values(names('a'), { id: 'number' })).rejects.toThrow('values: the query selects "name", which the shape does not name');
  });

  it('runs beside a transaction without losing either', async () => {
    const trx = database.legacy.knex.transaction(async (t) => {
      await t('items').insert({ name: 'c' });
    });
    const [counted] = await Promise.all([database.legacy.count(database.legacy.knex('items')), trx]);
    expect(counted).toBeGreaterThanOrEqual(2);
  });
});

describe.skipIf(!!process.env.FORGEKIT_TEST_DATABASE_URL)('prepared queries on a SQLite file', () => {
  let database: Database;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-prepared-file-'));
    database = await openDatabase({ dataDir, entities: [] });
    await database.legacy.knex.schema.createTable('items', (t) => {
      t.increments('id');
      t.string('name');
    });
  });
  afterAll(async () => {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const byName = (name: string) => database.legacy.values(database.legacy.knex('items').select('name').where('name', name), { name: 'string' });

  it('reads committed rows and never uncommitted ones of a running transaction', async () => {
    await database.legacy.knex('items').insert({ name: 'committed' });
    expect(await byName('committed')).toEqual([{ name: 'committed' }]);
    await database.legacy.knex.transaction(async (trx) => {
      await trx('items').insert({ name: 'pending' });
      expect(await byName('pending')).toEqual([]);
    });
    expect(await byName('pending')).toEqual([{ name: 'pending' }]);
  });

  it('binds booleans and dates as the writer stored them', async () => {
    await database.legacy.knex.schema.createTable('flags', (t) => {
      t.increments('id');
      t.boolean('active');
      t.timestamp('seen_at');
    });
    await database.legacy.knex('flags').insert([
      { active: true, seen_at: new Date('2026-01-01T00:00:00Z') },
      { active: false, seen_at: new Date('2026-03-01T00:00:00Z') },
    ]);
    const shape = { id: 'number', active: 'boolean', seen_at: 'date' } as const;
    const query = database.legacy.knex('flags').select('id', 'active', 'seen_at').where('active', true).where('seen_at', '<', new Date('2026-02-01T00:00:00Z'));
    expect(await database.legacy.values(query, shape)).toEqual([{ id: 1, active: true, seen_at: new Date('2026-01-01T00:00:00Z') }]);
    const inactive = database.legacy
      .knex('flags')
      .select('id', 'active', 'seen_at')
      .where('active', false)
      .where('seen_at', '>', new Date('2026-02-01T00:00:00Z'));
    expect(await database.legacy.values(inactive, shape)).toEqual([{ id: 2, active: false, seen_at: new Date('2026-03-01T00:00:00Z') }]);
  });
});
