import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineEntity } from '@mikro-orm/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './open-database.js';
import { sql } from './query.js';
import { internalsOf } from './internals.js';

const Author = defineEntity({
  name: 'UnionAuthor',
  tableName: 'union_authors',
  properties: (p) => ({
    id: p.integer().primary(),
    bookId: p.integer(),
    userId: p.integer(),
  }),
});

const Tag = defineEntity({
  name: 'UnionTag',
  tableName: 'union_tags',
  properties: (p) => ({
    id: p.integer().primary(),
    bookId: p.integer(),
    labelId: p.integer(),
  }),
});

const modes = process.env.FORGEKIT_TEST_DATABASE_URL ? ['postgresql'] : ['sqlite file', 'sqlite memory'];

describe.each(modes)('union all (%s)', (mode) => {
  let database: Database;
  let dataDir: string;
  const baseUrl = process.env.FORGEKIT_TEST_DATABASE_URL;
  const pgName = `forgekit_union_${process.pid}_${Date.now()}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    return client.query(text).finally(() => client.end());
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-union-'));
    let url = mode === 'sqlite memory' ? ':memory:' : join(dataDir, 'union.sqlite');
    if (baseUrl) {
      await admin(`CREATE DATABASE ${pgName}`);
      const parsed = new URL(baseUrl);
      parsed.pathname = `/${pgName}`;
      url = parsed.toString();
    }
    database = await openDatabase({ url, dataDir, entities: [Author, Tag] });
    const { knex } = internalsOf(database);
    for (const [table, column] of [
      ['union_authors', 'user_id'],
      ['union_tags', 'label_id'],
    ] as const) {
      await knex.schema.createTable(table, (t) => {
        t.increments('id');
        t.integer('book_id').notNullable();
        t.integer(column).notNullable();
      });
    }
    await database.insertMany(Author, [
      { bookId: 1, userId: 10 },
      { bookId: 2, userId: 20 },
      { bookId: 1, userId: 11 },
    ]);
    await database.insertMany(Tag, [
      { bookId: 2, labelId: 200 },
      { bookId: 1, labelId: 100 },
      { bookId: 3, labelId: 300 },
    ]);
  });
  afterAll(async () => {
    await database.close();
    if (baseUrl) await admin(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  });

  const shape = { bookId: 'number', kind: 'number', ref: 'number', id: 'number' } as const;
  const authors = (books: readonly number[]) =>
    database.table(Author).select({ bookId: 'bookId' }).selectSql('kind', sql`0`).select({ ref: 'userId' }).select('id').whereIn('bookId', books);
  const tags = (books: readonly number[]) =>
    database.table(Tag).select({ bookId: 'bookId' }).selectSql('kind', sql`1`).select({ ref: 'labelId' }).select('id').whereIn('bookId', books);

  it('reads the rows of two queries one after the other, ordered as a whole', async () => {
    const rows = await database.values(
      authors([1, 2])
        .unionAll(tags([1, 2]))
        .orderBy('id'),
      shape,
    );
    expect(rows.map((row) => [row.kind, row.ref])).toEqual([
      [0, 10],
      [1, 200],
      [0, 20],
      [1, 100],
      [0, 11],
    ]);
  });

  it('compiles a union once, with one list parameter in both of its queries', async () => {
    const related = database.prepareValues((p) => authors(p.books).unionAll(tags(p.books)).orderBy('id'), shape);
    const seen: string[] = [];
    const stop = database.observeReads((text) => seen.push(text));
    expect((await related.all({ books: [1] })).map((row) => row.ref)).toEqual([10, 100, 11]);
    expect((await related.all({ books: [3] })).map((row) => row.ref)).toEqual([300]);
    expect((await related.all({ books: [2, 3] })).map((row) => row.ref)).toEqual([200, 20, 300]);
    stop();
    expect(new Set(seen).size).toBe(2);
  });
});
