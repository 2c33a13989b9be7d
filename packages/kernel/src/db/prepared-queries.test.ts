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
    await database.knex.schema.createTable('items', (t) => {
      t.increments('id');
      t.string('name');
    });
    await database.knex('items').insert([{ name: 'a' }, { name: 'b' }]);
  });
  afterAll(async () => {
    await database.close();
    if (baseUrl) await admin(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reads rows with bound params, reusing the statement', async () => {
    const byName = database.prepare<{ id: number; name: string }>('select id, name from items where name = ?');
    expect(await byName.first(['a'])).toMatchObject({ name: 'a' });
    expect(await byName.first(['b'])).toMatchObject({ name: 'b' });
    expect(await byName.all(['c'])).toEqual([]);
  });

  it('shows every prepared read to its observers until they unsubscribe', async () => {
    const seen: string[] = [];
    const stop = database.observeReads((sql) => seen.push(sql));
    await database.prepare('select id from items where name = ?').all(['a']);
    await database.read(database.knex('items').select('name').where('name', 'a'));
    stop();
    await database.prepare('select id from items').all();
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe('select id from items where name = ?');
    expect(seen[1]).toContain('items');
  });

  it('runs a knex select as a prepared read', async () => {
    const rows = await database.read<{ name: string }>(database.knex('items').select('name').where('name', 'b'));
    expect(rows).toEqual([{ name: 'b' }]);
  });

  it('runs beside a transaction without losing either', async () => {
    const count = database.prepare<{ n: number }>('select count(*) as n from items');
    const trx = database.knex.transaction(async (t) => {
      await t('items').insert({ name: 'c' });
    });
    const [counted] = await Promise.all([count.first(), trx]);
    expect(Number(counted!.n)).toBeGreaterThanOrEqual(2);
  });
});

describe.skipIf(!!process.env.FORGEKIT_TEST_DATABASE_URL)('prepared queries on a SQLite file', () => {
  let database: Database;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-prepared-file-'));
    database = await openDatabase({ dataDir, entities: [] });
    await database.knex.schema.createTable('items', (t) => {
      t.increments('id');
      t.string('name');
    });
  });
  afterAll(async () => {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reads committed rows and never uncommitted ones of a running transaction', async () => {
    const byName = database.prepare<{ name: string }>('select name from items where name = ?');
    await database.knex('items').insert({ name: 'committed' });
    expect(await byName.first(['committed'])).toEqual({ name: 'committed' });
    await database.knex.transaction(async (trx) => {
      await trx('items').insert({ name: 'pending' });
      expect(await byName.first(['pending'])).toBeUndefined();
    });
    expect(await byName.first(['pending'])).toEqual({ name: 'pending' });
  });

  it('gives rows as plain objects, a later column of the same name winning', async () => {
    await database.knex('items').insert({ name: 'twice' });
    const sql = `select id, 'first' as name, 'quoted' as "odd ""key""", name from items where name = ?`;
    const rows = await database.prepare<Record<string, unknown>>(sql).all(['twice']);
    expect(rows).toEqual([{ id: expect.any(Number), name: 'twice', 'odd "key"': 'quoted' }]);
    expect(Object.keys(rows[0]!)).toEqual(['id', 'name', 'odd "key"']);
  });

  it('binds booleans and dates as the writer stored them', async () => {
    await database.knex.schema.createTable('flags', (t) => {
      t.increments('id');
      t.boolean('active');
      t.timestamp('seen_at');
    });
    await database.knex('flags').insert([
      { active: true, seen_at: new Date('2026-01-01T00:00:00Z') },
      { active: false, seen_at: new Date('2026-03-01T00:00:00Z') },
    ]);
    const query = database.knex('flags').select('id').where('active', true).where('seen_at', '<', new Date('2026-02-01T00:00:00Z'));
    expect(await database.read(query)).toEqual([{ id: 1 }]);
    const inactive = database.knex('flags').select('id').where('active', false).where('seen_at', '>', new Date('2026-02-01T00:00:00Z'));
    expect(await database.read(inactive)).toEqual([{ id: 2 }]);
  });
});
