import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineEntity } from '@mikro-orm/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './open-database.js';
import { ref, sql } from './query.js';
import { internalsOf } from './internals.js';

const Book = defineEntity({
  name: 'SubqueryBook',
  tableName: 'subquery_books',
  properties: (p) => ({
    id: p.integer().primary(),
    shelfId: p.integer(),
    title: p.string().length(64),
  }),
});

const Tag = defineEntity({
  name: 'SubqueryTag',
  tableName: 'subquery_tags',
  properties: (p) => ({
    id: p.integer().primary(),
    bookId: p.integer(),
    labelId: p.integer(),
  }),
});

const modes = process.env.FORGEKIT_TEST_DATABASE_URL ? ['postgresql'] : ['sqlite file', 'sqlite memory'];

describe.each(modes)('correlated subqueries (%s)', (mode) => {
  let database: Database;
  let dataDir: string;
  const baseUrl = process.env.FORGEKIT_TEST_DATABASE_URL;
  const pgName = `forgekit_subquery_${process.pid}_${Date.now()}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    return client.query(text).finally(() => client.end());
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-subquery-'));
    let url = mode === 'sqlite memory' ? ':memory:' : join(dataDir, 'subquery.sqlite');
    if (baseUrl) {
      await admin(`CREATE DATABASE ${pgName}`);
      const parsed = new URL(baseUrl);
      parsed.pathname = `/${pgName}`;
      url = parsed.toString();
    }
    database = await openDatabase({ url, dataDir, entities: [Book, Tag] });
    const { knex } = internalsOf(database);
    await knex.schema.createTable('subquery_books', (t) => {
      t.increments('id');
      t.integer('shelf_id').notNullable();
      t.string('title', 64).notNullable();
    });
    await knex.schema.createTable('subquery_tags', (t) => {
      t.increments('id');
      t.integer('book_id').notNullable();
      t.integer('label_id').notNullable();
    });
    const shelved = (shelfId: number, title: string) => database.insert(Book, { shelfId, title });
    const tagged = (bookId: number, ...labels: number[]) =>
      database.insertMany(
        Tag,
        labels.map((labelId) => ({ bookId, labelId })),
      );
    await tagged(await shelved(1, 'A'), 7, 8);
    await tagged(await shelved(1, 'B'), 9);
    await shelved(1, 'C');
    await tagged(await shelved(2, 'D'), 7);
  });
  afterAll(async () => {
    await database.close();
    if (baseUrl) await admin(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The lowest rank of a book's labels, where a label's rank depends on the book's shelf (the outer query's column). */
  const rankOf = (query: ReturnType<typeof books>) =>
    query.subquery(Tag, 't', (tags) =>
      tags
        .selectSql(
          'rank',
          sql`min(case when ${ref('b.shelfId')} = ${1} and ${ref('t.labelId')} = ${8} then ${1} when ${ref('t.labelId')} = ${7} then ${2} when ${ref('t.labelId')} = ${9} then ${3} end)`,
        )
        .whereColumn('t.bookId', 'b.id'),
    );
  const books = () => database.from(Book, 'b');

  it('orders by a value each row gets from a subquery that names its columns', async () => {
    const query = books();
    const rank = rankOf(query);
    query.orderBySql(sql`case when ${rank} is null then 1 else 0 end, ${rank} asc`).orderBy('b.title');
    expect((await database.rows(query)).map((book) => book.title)).toEqual(['A', 'D', 'B', 'C']);
  });

  it('selects that value as a computed column', async () => {
    const query = database.table(Book, 'b').select({ title: 'b.title' });
    const rows = await database.values(query.selectSql('rank', rankOf(query)).orderBy('b.title'), { title: 'string', rank: 'number' });
    expect(rows.map((book) => [book.title, book.rank])).toEqual([
      ['A', 1],
      ['B', 3],
      ['C', null],
      ['D', 2],
    ]);
  });

  it('refuses a name neither the subquery nor the outer query has', () => {
    expect(() => books().subquery(Tag, 't', (tags) => tags.whereColumn('t.bookId', 'x.id' as 'b.id'))).toThrow("no entity is aliased 'x'");
  });
});
