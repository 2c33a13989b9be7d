import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineEntity } from '@mikro-orm/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './open-database.js';
import { internalsOf } from './internals.js';

const Note = defineEntity({
  name: 'ExistsNote',
  tableName: 'exists_notes',
  properties: (p) => ({
    id: p.integer().primary(),
    title: p.string().length(64),
  }),
});

const Star = defineEntity({
  name: 'ExistsStar',
  tableName: 'exists_stars',
  properties: (p) => ({
    id: p.integer().primary(),
    noteId: p.integer(),
    userId: p.integer(),
  }),
});

const modes = process.env.FORGEKIT_TEST_DATABASE_URL ? ['postgresql'] : ['sqlite file', 'sqlite memory'];

describe.each(modes)('selectExists (%s)', (mode) => {
  let database: Database;
  let dataDir: string;
  const baseUrl = process.env.FORGEKIT_TEST_DATABASE_URL;
  const pgName = `forgekit_exists_${process.pid}_${Date.now()}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    return client.query(text).finally(() => client.end());
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-exists-'));
    let url = mode === 'sqlite memory' ? ':memory:' : join(dataDir, 'exists.sqlite');
    if (baseUrl) {
      await admin(`CREATE DATABASE ${pgName}`);
      const parsed = new URL(baseUrl);
      parsed.pathname = `/${pgName}`;
      url = parsed.toString();
    }
    database = await openDatabase({ url, dataDir, entities: [Note, Star] });
    const { knex } = internalsOf(database);
    await knex.schema.createTable('exists_notes', (t) => {
      t.increments('id');
      t.string('title', 64).notNullable();
    });
    await knex.schema.createTable('exists_stars', (t) => {
      t.increments('id');
      t.integer('note_id').notNullable();
      t.integer('user_id').notNullable();
    });
    await database.insertMany(Note, [{ title: 'a' }, { title: 'b' }, { title: 'c' }]);
    await database.insertMany(Star, [
      { noteId: 1, userId: 7 },
      { noteId: 3, userId: 8 },
    ]);
  });
  afterAll(async () => {
    await database.close();
    if (baseUrl) await admin(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('selects 1 where a correlated row exists and 0 where none does', async () => {
    const query = database
      .from(Note, 'n')
      .selectExists('starred', Star, 's', (s) => s.whereColumn('s.noteId', 'n.id').where('s.userId', 7))
      .orderBy('id');
    const rows = (await database.rows(query)) as { title: string; starred?: unknown }[];
    expect(rows.map((row) => [row.title, Number(row.starred)])).toEqual([
      ['a', 1],
      ['b', 0],
      ['c', 0],
    ]);
  });

  it('fills named parameters inside the subquery of a prepared read', async () => {
    const page = database.prepareRows((p) =>
      database
        .from(Note, 'n')
        .selectExists('starred', Star, 's', (s) => s.whereColumn('s.noteId', 'n.id').whereIn('s.userId', p.users))
        .orderBy('id')
        .limit(p.limit),
    );
    const starred = async (users: number[]) =>
      ((await page.all({ users, limit: 10 })) as { title: string; starred?: unknown }[]).map((row) => [row.title, Number(row.starred)]);
    expect(await starred([8])).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', 1],
    ]);
    expect(await starred([7, 8])).toEqual([
      ['a', 1],
      ['b', 0],
      ['c', 1],
    ]);
  });
});
