import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineEntity } from '@mikro-orm/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isUniqueViolation, unlessTaken } from './entity-writes.js';
import { schemaDrift } from './schema-drift.js';
import { openDatabase, type Database } from './open-database.js';
import { ref, sql } from './query.js';
import type { Transaction } from './transaction.js';
import { internalsOf } from './internals.js';

const Shelf = defineEntity({
  name: 'Shelf',
  tableName: 'shelves',
  properties: (p) => ({
    id: p.integer().primary(),
    name: p.string().length(64).unique(),
  }),
});

/** Described as migrated below: no drift. */
const Page = defineEntity({
  name: 'Page',
  tableName: 'pages',
  uniques: [{ properties: ['bookId', 'number'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    bookId: p.integer(),
    number: p.integer(),
    draft: p.boolean().default(false),
  }),
});

/** The same table described wrongly: a column the migration lacks, a default it has not, no unique index. */
const PageDrifted = defineEntity({
  name: 'PageDrifted',
  tableName: 'pages',
  properties: (p) => ({
    id: p.integer().primary(),
    bookId: p.integer(),
    number: p.integer(),
    draft: p.boolean().default(true),
    footnote: p.string().length(255).nullable(),
  }),
});

const Book = defineEntity({
  name: 'Book',
  tableName: 'books',
  properties: (p) => ({
    id: p.integer().primary(),
    shelfId: p.integer().nullable(),
    title: p.string().length(255),
    available: p.boolean(),
    tags: p.json<string[]>(),
    published: p.date().nullable(),
    createdAt: p.datetime(),
  }),
});

/** Waits until `done` holds, checking every few milliseconds; fails after five seconds. */
async function until(done: () => boolean | Promise<boolean>, what: string) {
  const deadline = Date.now() + 5_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** SQLite files read on their own synchronous connection; in-memory databases read through the pool. */
const modes = process.env.FORGEKIT_TEST_DATABASE_URL ? ['postgresql'] : ['sqlite file', 'sqlite memory'];

describe.each(modes)('entity reads and writes (%s)', (mode) => {
  let database: Database;
  let dataDir: string;
  const baseUrl = process.env.FORGEKIT_TEST_DATABASE_URL;
  const pgName = `forgekit_entities_${process.pid}_${Date.now()}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    return client.query(text).finally(() => client.end());
  };
  const created = new Date('2026-03-04T05:06:07.089Z');
  let url: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-entities-'));
    url = mode === 'sqlite memory' ? ':memory:' : join(dataDir, 'entities.sqlite');
    if (baseUrl) {
      await admin(`CREATE DATABASE ${pgName}`);
      const parsed = new URL(baseUrl);
      parsed.pathname = `/${pgName}`;
      url = parsed.toString();
    }
    database = await openDatabase({ url, dataDir, entities: [Shelf, Book, Page] });
    const { knex } = internalsOf(database);
    await knex.schema.createTable('shelves', (t) => {
      t.increments('id');
      t.string('name', 64).notNullable().unique();
    });
    await knex.schema.createTable('books', (t) => {
      t.increments('id');
      t.integer('shelf_id');
      t.string('title', 255).notNullable();
      t.boolean('available').notNullable();
      t.text('tags').notNullable();
      t.string('published', 10);
      t.timestamp('created_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable('pages', (t) => {
      t.increments('id');
      t.integer('book_id').notNullable();
      t.integer('number').notNullable();
      t.boolean('draft').notNullable().defaultTo(false);
      t.unique(['book_id', 'number']);
    });
    const shelf = await database.insert(Shelf, { name: 'fiction' });
    await database.insertMany(Book, [
      { shelfId: shelf, title: 'A', available: true, tags: ['x', 'y'], published: '2020-01-02', createdAt: created },
      { shelfId: null, title: 'B', available: false, tags: [], published: null, createdAt: created },
      { shelfId: shelf, title: 'C', available: true, tags: ['z'], published: null, createdAt: created },
    ]);
  });
  afterAll(async () => {
    await database.close();
    if (baseUrl) await admin(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers rows as the entity properties, with JavaScript values on both engines', async () => {
    const books = await database.rows(database.from(Book).orderBy('id'));
    expect(books[0]).toEqual({ id: 1, shelfId: 1, title: 'A', available: true, tags: ['x', 'y'], published: '2020-01-02', createdAt: created });
    expect(books[1]).toMatchObject({ available: false, shelfId: null, published: null, tags: [] });
  });

  it('names columns by property, and refuses a name no entity of the query has', () => {
    expect(database.from(Book, 'b').where('b.shelfId', 1).toKnex().toSQL().sql).toContain('"b"."shelf_id"');
    expect(() => database.from(Book).where('shelf_id' as 'shelfId', 1)).toThrow("Query over Book: Book has no property 'shelf_id' (in 'shelf_id')");
    expect(() => database.from(Book, 'b').where('s.name' as 'b.title', 'x')).toThrow("Query over Book: no entity is aliased 's' (in 's.name')");
  });

  it('nests a joined entity under its key, and null when a left join found nothing', async () => {
    const query = database.from(Book, 'b').leftJoin(Shelf, 's', 's.id', 'b.shelfId').nest('shelf', 's').orderBy('b.id');
    const books = await database.rows(query);
    expect(books.map((book) => [book.title, book.shelf?.name ?? null])).toEqual([
      ['A', 'fiction'],
      ['B', null],
      ['C', 'fiction'],
    ]);
  });

  it('reads exists-subqueries, conditional counts, searches and orders by property', async () => {
    const onShelf = database.from(Book, 'b').whereExists(Shelf, 's', (s) => s.whereColumn('s.id', 'b.shelfId').whereIgnoringCase('s.name', 'FICTION'));
    expect(await database.count(database.from(Shelf).whereIgnoringCase('name', 'Fiction'))).toBe(1);
    expect((await database.rows(onShelf.orderBy('b.title'))).map((book) => book.title)).toEqual(['A', 'C']);
    const counted = database
      .table(Book)
      .count({ all: '*' })
      .countWhere('unshelved', (w) => w.whereNull('shelfId').orWhere('title', 'C'));
    expect(await database.totals(counted)).toEqual({ all: 3, unshelved: 2 });
    expect((await database.rows(database.from(Book).whereContains(['title'], 'b'))).map((book) => book.title)).toEqual(['B']);
    const byPublished = await database.rows(database.from(Book).orderBy('published', 'asc', { nulls: 'last' }).orderBy('title'));
    expect(byPublished.map((book) => book.title)).toEqual(['A', 'B', 'C']);
    const raw = database.from(Book).where(sql`lower(${ref('title')}) = ${'c'}`);
    expect((await database.rows(raw)).map((book) => book.title)).toEqual(['C']);
    const shelved = database.from(Book).where(sql`${ref('shelfId')} in ${database.table(Shelf).select('id')}`);
    expect((await database.rows(shelved.orderBy('title'))).map((book) => book.title)).toEqual(['A', 'C']);
  });

  it('fails a statement the database cannot prepare, rather than waiting for ever', async () => {
    await expect(database.rows(database.from(Book).where(sql`(( ${ref('title')}`))).rejects.toThrow(/syntax error|incomplete input/);
    await expect(database.rows(database.from(Book).where(sql`(( ${ref('title')}`))).rejects.toThrow(/syntax error|incomplete input/);
  });

  it('finds no row for a number no integer column can hold, on both engines', async () => {
    expect(await database.rows(database.from(Book).where('id', 2 ** 40))).toEqual([]);
    expect(await database.rows(database.from(Book).where('id', 1e40))).toEqual([]);
    expect(await database.count(database.from(Book).where('shelfId', -(2 ** 35)))).toBe(0);
    const byId = database.prepareRows((p) => database.from(Book).where('id', p.id));
    expect(await byId.all({ id: 9_007_199_254_740_991 })).toEqual([]);
  });

  it('counts as a number', async () => {
    expect(await database.count(database.from(Book).where('available', true))).toBe(2);
  });

  it('compiles a read once and fills its named parameters, limit and offset included', async () => {
    const page = database.prepareRows((p) => database.from(Book).where('available', p.available).orderBy('id').limit(p.limit).offset(p.offset));
    expect((await page.all({ available: true, limit: 1, offset: 1 })).map((book) => book.title)).toEqual(['C']);
    expect((await page.all({ available: false, limit: 10, offset: 0 })).map((book) => book.title)).toEqual(['B']);
    expect(await page.first({ available: true, limit: 5, offset: 5 })).toBeUndefined();
  });

  it('compiles one statement per length of a list parameter, and keeps it', async () => {
    const byIds = database.prepareRows((p) => database.from(Book).whereIn('id', p.ids).orderBy('id'));
    const seen: string[] = [];
    const stop = database.observeReads((text) => seen.push(text));
    expect((await byIds.all({ ids: [1, 3] })).map((book) => book.title)).toEqual(['A', 'C']);
    expect((await byIds.all({ ids: [2, 3] })).map((book) => book.title)).toEqual(['B', 'C']);
    expect((await byIds.all({ ids: [2] })).map((book) => book.title)).toEqual(['B']);
    stop();
    expect(new Set(seen).size).toBe(2);
  });

  it('compiles computed columns once and decodes them by their shape on both engines', async () => {
    const perShelf = database.prepareValues(
      (p) =>
        database
          .table(Book)
          .select({ shelf: 'shelfId' })
          .count({ books: '*' })
          .where('available', p.available)
          .whereIn('id', [p.first, p.second, p.third])
          .groupBy('shelfId')
          .orderBy('shelfId'),
      { shelf: 'number', books: 'number' },
    );
    expect(await perShelf.all({ available: true, first: 1, second: 2, third: 3 })).toEqual([{ shelf: 1, books: 2 }]);
    expect(await perShelf.all({ available: false, first: 1, second: 2, third: 3 })).toEqual([{ shelf: null, books: 1 }]);
    expect(await perShelf.first({ available: true, first: 4, second: 5, third: 6 })).toBeUndefined();
  });

  it('writes in one transaction, whose reads see its own writes, or not at all', async () => {
    await expect(
      database.transaction(async (tx) => {
        await database.update(Book, { title: 'A' }, { available: false }, { tx });
        const inside = await database.row(database.from(Book).where('title', 'A'), { tx });
        expect(inside?.available).toBe(false);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await database.row(database.from(Book).where('title', 'A')))?.available).toBe(true);
  });

  it('refuses a transaction handle it did not make', async () => {
    await expect(database.update(Book, { title: 'A' }, { available: true }, { tx: {} as Transaction })).rejects.toThrow('Not a transaction of this database');
  });

  it('writes, in a transaction or not, without entering an AsyncLocalStorage (which would slow every promise)', async () => {
    const run = vi.spyOn(AsyncLocalStorage.prototype, 'run');
    const enterWith = vi.spyOn(AsyncLocalStorage.prototype, 'enterWith');
    try {
      await database.transaction(async (tx) => {
        await database.update(Book, { title: 'A' }, { available: false }, { tx });
        await database.update(Book, { title: 'A' }, { available: true }, { tx });
      });
      await expect(database.transaction(async () => Promise.reject(new Error('roll back')))).rejects.toThrow('roll back');
      await database.update(Book, { title: 'A' }, { available: true });
      expect(run).not.toHaveBeenCalled();
      expect(enterWith).not.toHaveBeenCalled();
    } finally {
      run.mockRestore();
      enterWith.mockRestore();
    }
  });

  it('tells a unique violation apart from other failures', async () => {
    const error = await database.insert(Shelf, { name: 'fiction' }).catch((thrown: unknown) => thrown);
    expect(isUniqueViolation(error)).toBe(true);
    expect(await unlessTaken(database.insert(Shelf, { name: 'fiction' }), () => 'taken')).toBe('taken');
    expect(isUniqueViolation(new Error('other'))).toBe(false);
  });

  it('finds no drift where entities describe the migrated tables, and names each difference where they do not', async () => {
    expect(await schemaDrift(database, [Page])).toEqual([]);
    // A second connection to the same tables; an in-memory database has no second connection.
    if (url === ':memory:') return;
    const drifted = await openDatabase({ url, dataDir, entities: [PageDrifted] });
    try {
      const lines = await schemaDrift(drifted, [PageDrifted]);
      expect(lines).toContain('pages.footnote: described but not migrated');
      expect(lines.some((line) => line.startsWith('pages.draft: default'))).toBe(true);
      expect(lines.some((line) => line.includes('migrated but not described') && line.includes('book_id, number'))).toBe(true);
    } finally {
      await drifted.close();
    }
  });

  it('inserts only what a guard lets through, atomically when inserts race', async () => {
    const ofShelf = () => database.from(Book).where('shelfId', 9);
    const book = (title: string) => ({ shelfId: 9, title, available: true, tags: [], published: null, createdAt: created });
    const insert = (title: string, below: number) =>
      database.insertGuarded(Book, book(title), { unlessExists: ofShelf().where('title', title), count: { of: ofShelf(), below }, lockKey: 'shelf:9' });
    const first = await insert('G1', 3);
    expect(first).toBeGreaterThan(0);
    expect(await database.row(database.from(Book).where('id', first!))).toMatchObject({
      title: 'G1',
      shelfId: 9,
      available: true,
      tags: [],
      createdAt: created,
    });
    expect(await insert('G1', 3)).toBeNull();
    const raced = await Promise.all(['G2', 'G3', 'G4', 'G5', 'G6'].map((title) => insert(title, 3)));
    expect(raced.filter((id) => id !== null)).toHaveLength(2);
    expect(await database.count(ofShelf())).toBe(3);
  });

  it('compiles a guarded insert once: named guards, a limit per call (0: none), atomic when inserts race', async () => {
    const created = new Date('2026-03-04T05:06:07.000Z');
    const guarded = database.prepareInsertGuarded(Book, (p) => ({
      unlessExists: database.from(Book).where({ shelfId: p.shelf, title: p.title }),
      countOf: database.from(Book).where('shelfId', p.shelf),
      lockKey: `shelf:${p.shelf}`,
    }));
    const insert = (shelfId: number, title: string, limit: number) =>
      guarded.run({ shelfId, title, available: false, tags: ['x'], published: null, createdAt: created }, { shelf: shelfId, title }, limit);
    const first = await insert(11, 'P1', 2);
    expect(await database.row(database.from(Book).where('id', first!))).toMatchObject({
      shelfId: 11,
      title: 'P1',
      available: false,
      tags: ['x'],
      createdAt: created,
    });
    expect(await insert(11, 'P1', 2)).toBeNull();
    expect(await insert(12, 'P1', 2)).toBeGreaterThan(0);
    const raced = await Promise.all(['P2', 'P3', 'P4', 'P5'].map((title) => insert(11, title, 2)));
    expect(raced.filter((id) => id !== null)).toHaveLength(1);
    expect(await insert(11, 'P6', 2)).toBeNull();
    expect(await insert(11, 'P6', 0)).toBeGreaterThan(0);
    expect(await database.count(database.from(Book).where('shelfId', 11))).toBe(3);
  });

  it("runs a guarded insert as one statement text, never inside another request's transaction", async () => {
    const guarded = database.prepareInsertGuarded(Book, (p) => ({
      unlessExists: database.from(Book).where({ shelfId: p.shelf, title: p.title }),
      lockKey: 'shelf:21',
    }));
    const insert = (title: string) =>
      guarded.run({ shelfId: 21, title, available: true, tags: [], published: null, createdAt: created }, { shelf: 21, title }, 0);
    const seen: string[] = [];
    const stop = database.observeReads((text) => seen.push(text));
    let inserted: Promise<number | null> | undefined;
    let settled = false;
    await expect(
      database.transaction(async (tx) => {
        await database.insert(Book, { shelfId: 21, title: 'T0', available: true, tags: [], published: null, createdAt: created }, { tx });
        inserted = insert('T1').finally(() => (settled = true));
        // SQLite: the insert waits for this transaction's write lock; PostgreSQL: it runs beside it.
        if (mode === 'postgresql') await until(() => settled, 'the guarded insert ends');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await inserted).toBeGreaterThan(0);
    expect(await insert('T2')).toBeGreaterThan(0);
    stop();
    const titles = await database.rows(database.from(Book).where('shelfId', 21).orderBy('title'));
    expect(titles.map((book) => book.title)).toEqual(['T1', 'T2']);
    const inserts = seen.filter((text) => text.startsWith('insert'));
    expect(inserts).toHaveLength(mode === 'postgresql' ? 0 : 2);
    expect(new Set(inserts).size).toBeLessThanOrEqual(1);
  });

  /** Two transactions: the first holds `first` until the second has tried `second`; the order events happened in. */
  async function twoTransactions(first: string, second: string, secondIsWaiting: () => Promise<boolean>) {
    const order: string[] = [];
    let releaseFirst!: () => void;
    const firstMayEnd = new Promise<void>((resolve) => (releaseFirst = resolve));
    const a = database.transaction(async (tx) => {
      await database.lock(tx, first);
      order.push('a:locked');
      await firstMayEnd;
      order.push('a:end');
    });
    await until(() => order.includes('a:locked'), 'the first transaction holds its lock');
    const b = database.transaction(async (tx) => {
      await database.lock(tx, second);
      order.push('b:locked');
    });
    await until(async () => order.includes('b:locked') || (await secondIsWaiting()), 'the second transaction locks or waits');
    releaseFirst();
    await Promise.all([a, b]);
    return order;
  }

  if (mode === 'postgresql') {
    /** Whether a session waits for an advisory lock. */
    const waitingForLock = async () => (await admin(`select count(*) as n from pg_locks where locktype = 'advisory' and not granted`)).rows[0].n > 0;

    it('makes transactions that lock the same key take turns, across connections', async () => {
      expect(await twoTransactions('shelf-count', 'shelf-count', waitingForLock)).toEqual(['a:locked', 'a:end', 'b:locked']);
    });

    it('lets transactions that lock different keys run side by side', async () => {
      expect(await twoTransactions('shelf:1', 'shelf:2', waitingForLock)).toEqual(['a:locked', 'b:locked', 'a:end']);
    });
  } else {
    it('runs one write transaction at a time, so a lock has nothing to add on SQLite', async () => {
      // The second transaction waits for the one write connection while the first is open
      // (for its turn in the group commit, with synchronous = FULL).
      const internals = internalsOf(database);
      const pool = (internals.knex.client as unknown as { pool: { numPendingAcquires(): number } }).pool;
      const order = await twoTransactions('shelf:1', 'shelf:2', async () => pool.numPendingAcquires() > 0 || internals.queuedWrites() > 0);
      expect(order).toEqual(['a:locked', 'a:end', 'b:locked']);
    });
  }
});
