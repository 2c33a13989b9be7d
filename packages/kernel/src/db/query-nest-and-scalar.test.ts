/** Nesting some properties of a joined entity, and correlated scalar subqueries, on both engines. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineEntity } from '@mikro-orm/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './open-database.js';
import { internalsOf } from './internals.js';

const Author = defineEntity({
  name: 'NestAuthor',
  tableName: 'nest_authors',
  properties: (p) => ({
    id: p.integer().primary(),
    name: p.string().length(64),
    biography: p.text(),
    joinedAt: p.datetime(),
  }),
});

const Note = defineEntity({
  name: 'NestNote',
  tableName: 'nest_notes',
  properties: (p) => ({
    id: p.integer().primary(),
    authorId: p.integer().nullable(),
    title: p.string().length(64),
  }),
});

const Vote = defineEntity({
  name: 'NestVote',
  tableName: 'nest_votes',
  properties: (p) => ({
    id: p.integer().primary(),
    noteId: p.integer(),
    score: p.integer(),
  }),
});

const baseUrl = process.env.FORGEKIT_TEST_DATABASE_URL;

describe(`nested properties and scalar subqueries (${baseUrl ? 'postgresql' : 'sqlite'})`, () => {
  let database: Database;
  let dataDir: string;
  const pgName = `forgekit_nest_${process.pid}_${Date.now()}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    return client.query(text).finally(() => client.end());
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-nest-'));
    let url = join(dataDir, 'nest.sqlite');
    if (baseUrl) {
      await admin(`CREATE DATABASE ${pgName}`);
      const parsed = new URL(baseUrl);
      parsed.pathname = `/${pgName}`;
      url = parsed.toString();
    }
    database = await openDatabase({ url, dataDir, entities: [Author, Note, Vote] });
    const { knex } = internalsOf(database);
    await knex.schema.createTable('nest_authors', (t) => {
      t.increments('id');
      t.string('name', 64).notNullable();
      t.text('biography').notNullable();
      t.timestamp('joined_at', { useTz: true }).notNullable();
    });
    await knex.schema.createTable('nest_notes', (t) => {
      t.increments('id');
      t.integer('author_id');
      t.string('title', 64).notNullable();
    });
    await knex.schema.createTable('nest_votes', (t) => {
      t.increments('id');
      t.integer('note_id').notNullable();
      t.integer('score').notNullable();
    });
    const ada = await database.insert(Author, { name: 'Ada', biography: 'a long text', joinedAt: new Date('2026-01-02T03:04:05Z') });
    const first = await database.insert(Note, { authorId: ada, title: 'first' });
    await database.insert(Note, { authorId: null, title: 'orphan' });
    await database.insertMany(Vote, [
      { noteId: first, score: 3 },
      { noteId: first, score: 5 },
    ]);
  });
  afterAll(async () => {
    await database.close();
    if (baseUrl) await admin(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('nests only the properties named, and null when a left join found nothing', async () => {
    const query = database.from(Note, 'n').leftJoin(Author, 'a', 'a.id', 'n.authorId').nest('author', 'a', ['id', 'name']).orderBy('n.id');
    expect(query.toKnex().toSQL().sql).not.toContain('biography');
    const notes = await database.rows(query);
    expect(notes).toEqual([
      { id: 1, authorId: 1, title: 'first', author: { id: 1, name: 'Ada' } },
      { id: 2, authorId: null, title: 'orphan', author: null },
    ]);
    const prepared = database.prepareRows((p) =>
      database.from(Note, 'n').join(Author, 'a', 'a.id', 'n.authorId').nest('author', 'a', ['name', 'joinedAt']).where('n.id', p.id),
    );
    expect(await prepared.first({ id: 1 })).toEqual({
      id: 1,
      authorId: 1,
      title: 'first',
      author: { name: 'Ada', joinedAt: new Date('2026-01-02T03:04:05Z') },
    });
  });

  it('refuses to nest a property the joined entity does not have', () => {
    const query = database.from(Note, 'n').join(Author, 'a', 'a.id', 'n.authorId');
    expect(() => query.nest('author', 'a', ['email' as 'name'])).toThrow("Query over NestNote: NestAuthor has no property 'email' (in 'a.email')");
  });

  it('selects a correlated scalar subquery that names the outer query, prepared or not', async () => {
    const best = (query: ReturnType<typeof database.from<typeof Note, 'n'>>) =>
      query.selectQuery('best', Vote, 'v', (v) => v.max({ best: 'v.score' }).whereColumn('v.noteId', 'n.id')).orderBy('n.id');
    const rows = await database.rows(best(database.from(Note, 'n')));
    expect(rows.map((row) => [row.title, (row as { best?: unknown }).best])).toEqual([
      ['first', 5],
      ['orphan', null],
    ]);
    const prepared = database.prepareRows((p) =>
      database
        .from(Note, 'n')
        .selectQuery('votes', Vote, 'v', (v) => v.count({ votes: '*' }).whereColumn('v.noteId', 'n.id').where('v.score', '>=', p.least))
        .where('n.id', p.id),
    );
    const counted = (await prepared.first({ id: 1, least: 4 })) as { votes?: unknown } | undefined;
    expect(Number(counted?.votes)).toBe(1);
  });
});
