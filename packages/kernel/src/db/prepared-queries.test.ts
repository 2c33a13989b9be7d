import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineEntity } from '@mikro-orm/core';
import { internalsOf } from './internals.js';
import { openDatabase, type Database } from './open-database.js';
import { sql } from './query.js';
import { toNumberedPlaceholders } from './prepared-queries.js';

describe('toNumberedPlaceholders', () => {
  it('numbers placeholders outside quotes', () => {
    expect(toNumberedPlaceholders("select * from t where a = ? and b = '?' and c in (?, ?)")).toBe(
      "select * from t where a = $1 and b = '?' and c in ($2, $3)",
    );
  });
});

const Item = defineEntity({
  name: 'Item',
  tableName: 'items',
  properties: (p) => ({ id: p.integer().primary(), name: p.string().length(255).nullable() }),
});

const Flag = defineEntity({
  name: 'Flag',
  tableName: 'flags',
  properties: (p) => ({ id: p.integer().primary(), active: p.boolean().nullable(), seenAt: p.datetime().nullable() }),
});

describe('prepared queries', () => {
  let database: Database;
  let dataDir: string;
  const baseUrl = process.env.FORGEKIT_TEST_DATABASE_URL;
  const pgName = `forgekit_prepared_${process.pid}_${Date.now()}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    await client.query(text).finally(() => client.end());
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
    database = await openDatabase({ url, dataDir, entities: [Item] });
    await internalsOf(database).knex.schema.createTable('items', (t) => {
      t.increments('id');
      t.string('name');
    });
    await database.insertMany(Item, [{ name: 'a' }, { name: 'b' }]);
  });
  afterAll(async () => {
    await database.close();
    if (baseUrl) await admin(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  });

  const names = (name: string) => database.table(Item).select('id', 'name').where('name', name);
  const shape = { id: 'number', name: 'string' } as const;

  it('reads rows with bound params, reusing the statement', async () => {
    const seen: string[] = [];
    const stop = database.observeReads((text) => seen.push(text));
    expect(await database.values(names('a'), shape)).toEqual([{ id: 1, name: 'a' }]);
    expect(await database.values(names('b'), shape)).toEqual([{ id: 2, name: 'b' }]);
    expect(await database.values(names('c'), shape)).toEqual([]);
    stop();
    expect(new Set(seen).size).toBe(1);
  });

  it('shows every prepared read to its observers until they unsubscribe', async () => {
    const seen: string[] = [];
    const stop = database.observeReads((text) => seen.push(text));
    await database.values(names('a'), shape);
    await database.count(database.from(Item));
    stop();
    await database.values(names('a'), shape);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toContain('items');
    expect(seen[1]).toContain('count(*)');
  });

  it('shows every statement, writes and transactions too, to those who observe statements', async () => {
    const seen: string[] = [];
    const stop = database.observeStatements((text) => seen.push(text));
    await database.values(names('a'), shape);
    await database.transaction(async (tx) => {
      await database.update(Item, { name: 'zz' }, { name: 'zz' }, { tx });
    });
    stop();
    await database.values(names('a'), shape);
    expect(seen.some((text) => text.includes('select') && text.includes('items'))).toBe(true);
    expect(seen.some((text) => text.startsWith('update'))).toBe(true);
    expect(seen.filter((text) => text.includes('select') && text.includes('items'))).toHaveLength(1);
  });

  it('decodes computed values as the shape names them, the same on both engines', async () => {
    const grouped = database.table(Item).select('name').count({ count: '*' }).max({ top: 'id' }).groupBy('name').orderBy('name');
    expect(await database.values(grouped, { name: 'string', count: 'number', top: 'number' })).toEqual([
      { name: 'a', count: 1, top: 1 },
      { name: 'b', count: 1, top: 2 },
    ]);
    const flags = database.table(Item).selectSql('first', sql`case when name = 'a' then 1 else 0 end`).orderBy('id');
    expect(await database.values(flags, { first: 'boolean' })).toEqual([{ first: true }, { first: false }]);
  });

  it('refuses a column the shape does not name', async () => {
    await expect(database.values(names('a'), { id: 'number' })).rejects.toThrow('values: the query selects "name", which the shape does not name');
  });

  it('runs beside a transaction without losing either', async () => {
    const written = database.transaction(async (tx) => {
      await database.insert(Item, { name: 'c' }, { tx });
    });
    const [counted] = await Promise.all([database.count(database.from(Item)), written]);
    expect(counted).toBeGreaterThanOrEqual(2);
  });
});

describe.skipIf(!!process.env.FORGEKIT_TEST_DATABASE_URL)('prepared queries on a SQLite file', () => {
  let database: Database;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-prepared-file-'));
    database = await openDatabase({ dataDir, entities: [Item, Flag] });
    const { knex } = internalsOf(database);
    await knex.schema.createTable('items', (t) => {
      t.increments('id');
      t.string('name');
    });
    await knex.schema.createTable('flags', (t) => {
      t.increments('id');
      t.boolean('active');
      t.timestamp('seen_at');
    });
  });
  afterAll(async () => {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const byName = (name: string) => database.values(database.table(Item).select('name').where('name', name), { name: 'string' });

  it('reads committed rows and never uncommitted ones of a running transaction', async () => {
    await database.insert(Item, { name: 'committed' });
    expect(await byName('committed')).toEqual([{ name: 'committed' }]);
    await database.transaction(async (tx) => {
      await database.insert(Item, { name: 'pending' }, { tx });
      expect(await byName('pending')).toEqual([]);
    });
    expect(await byName('pending')).toEqual([{ name: 'pending' }]);
  });

  it('binds booleans and dates as the writer stored them', async () => {
    await database.insertMany(Flag, [
      { active: true, seenAt: new Date('2026-01-01T00:00:00Z') },
      { active: false, seenAt: new Date('2026-03-01T00:00:00Z') },
    ]);
    const active = await database.rows(database.from(Flag).where('active', true).where('seenAt', '<', new Date('2026-02-01T00:00:00Z')));
    expect(active).toEqual([{ id: 1, active: true, seenAt: new Date('2026-01-01T00:00:00Z') }]);
    const inactive = await database.rows(database.from(Flag).where('active', false).where('seenAt', '>', new Date('2026-02-01T00:00:00Z')));
    expect(inactive).toEqual([{ id: 2, active: false, seenAt: new Date('2026-03-01T00:00:00Z') }]);
  });
});
