import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineEntity } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import BetterSqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from './entity-writes.js';
import { createGroupCommit, type GroupConnection, QueueTimeoutError } from './group-commit.js';
import { internalsOf } from './internals.js';
import { openDatabase, type Database, type DatabaseOptions } from './open-database.js';

/** A promise and its resolver. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/**
 * A connection that records what the group commit asks of it; `failOn` makes a statement
 * (or `commit`) fail; `commitsWait`, when set, holds every commit until it opens.
 */
function recordingConnection(failOn: (sql: string) => boolean = () => false) {
  const log: string[] = [];
  let next = 0;
  const state: { commitsWait?: Promise<void> } = {};
  const connection: GroupConnection = {
    async begin() {
      const id = ++next;
      log.push(`begin ${id}`);
      return {
        id,
        async raw(sql: string) {
          log.push(sql);
          if (failOn(sql)) throw new Error(`failed: ${sql}`);
        },
      } as unknown as Knex.Transaction;
    },
    async commit(trx) {
      const id = (trx as unknown as { id: number }).id;
      log.push(`commit ${id} starts`);
      await state.commitsWait;
      if (failOn('commit')) throw new Error('disk I/O error');
      log.push(`commit ${id} done`);
    },
    async rollback(trx) {
      log.push(`rollback ${(trx as unknown as { id: number }).id}`);
    },
  };
  return { connection, log, state };
}

const commits = (log: readonly string[]) => log.filter((entry) => entry.endsWith(' done'));

describe('group commit', () => {
  it('runs the units that arrive while a group is open in it, and those that arrive while it commits in the next; answers each after its commit', async () => {
    const { connection, log, state } = recordingConnection();
    const group = createGroupCommit(connection);
    const answered = (name: string) => (value: unknown) => log.push(`answer ${name}: ${value}`);
    const unit = (name: string, wait?: Promise<void>) =>
      group
        .run(async () => {
          log.push(`work ${name}`);
          await wait;
          return name;
        })
        .then(answered(name));
    const aMayEnd = gate();
    const firstCommitMayEnd = gate();
    state.commitsWait = firstCommitMayEnd.opened;
    const a = unit('a', aMayEnd.opened);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const b = unit('b');
    aMayEnd.open();
    // The first group commits (its sync takes a while); c and d arrive meanwhile.
    while (!log.includes('commit 1 starts')) await new Promise((resolve) => setTimeout(resolve, 1));
    state.commitsWait = undefined;
    const c = unit('c');
    const d = unit('d');
    firstCommitMayEnd.open();
    await Promise.all([a, b, c, d]);
    expect(log).toEqual([
      'begin 1',
      'work a',
      'savepoint forgekit_unit',
      'work b',
      'commit 1 starts',
      'commit 1 done',
      'answer a: a',
      'answer b: b',
      'begin 2',
      'work c',
      'savepoint forgekit_unit',
      'work d',
      'commit 2 starts',
      'commit 2 done',
      'answer c: c',
      'answer d: d',
    ]);
  });

  it('rolls a failing unit back to its savepoint alone, and answers its error once the others committed', async () => {
    const { connection, log } = recordingConnection();
    const group = createGroupCommit(connection);
    const firstMayEnd = gate();
    const a = group.run(async () => firstMayEnd.opened);
    const b = group.run(async () => 'b');
    const failure = new Error('no such project');
    const c = group.run(async () => {
      throw failure;
    });
    const cFailed = c.catch((error: unknown) => {
      log.push('answer c: failed');
      return error;
    });
    const d = group.run(async () => 'd');
    firstMayEnd.open();
    await a;
    expect(await b).toBe('b');
    expect(await cFailed).toBe(failure);
    expect(await d).toBe('d');
    // Savepoints stay open until the commit: c's rollback goes back to the newest, its own.
    expect(log).toEqual([
      'begin 1',
      'savepoint forgekit_unit',
      'savepoint forgekit_unit',
      'rollback to forgekit_unit',
      'savepoint forgekit_unit',
      'commit 1 starts',
      'commit 1 done',
      'answer c: failed',
    ]);
  });

  it('rolls back a group whose first unit fails, and runs the units behind it in the next group', async () => {
    const { connection, log } = recordingConnection();
    const group = createGroupCommit(connection);
    const failure = new Error('first fails');
    const a = group.run(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw failure;
    });
    const b = group.run(async () => 'b');
    await expect(a).rejects.toBe(failure);
    expect(await b).toBe('b');
    expect(log).toEqual(['begin 1', 'rollback 1', 'begin 2', 'commit 2 starts', 'commit 2 done']);
  });

  it('fails every unit of a group whose commit fails: none of their writes landed', async () => {
    const { connection } = recordingConnection((sql) => sql === 'commit');
    const group = createGroupCommit(connection);
    const firstMayEnd = gate();
    const a = group.run(async () => firstMayEnd.opened);
    const b = group.run(async () => 'b');
    const c = group.run(async () => 'c');
    firstMayEnd.open();
    await expect(a).rejects.toThrow('disk I/O error');
    await expect(b).rejects.toThrow('disk I/O error');
    await expect(c).rejects.toThrow('disk I/O error');
  });

  it('fails the whole group when SQLite rolled its transaction back (no savepoint to return to)', async () => {
    const { connection, log } = recordingConnection((sql) => sql.startsWith('rollback to'));
    const group = createGroupCommit(connection);
    const firstMayEnd = gate();
    const a = group.run(async () => firstMayEnd.opened);
    const full = new Error('database or disk is full');
    const b = group.run(async () => {
      throw full;
    });
    const c = group.run(async () => 'c');
    firstMayEnd.open();
    await expect(a).rejects.toBe(full);
    await expect(b).rejects.toBe(full);
    // c had not started: it runs in a group of its own.
    expect(await c).toBe('c');
    expect(log).toEqual(['begin 1', 'savepoint forgekit_unit', 'rollback to forgekit_unit', 'rollback 1', 'begin 2', 'commit 2 starts', 'commit 2 done']);
  });

  it('runs a single statement outside a transaction when nothing else waits, and inside the group otherwise', async () => {
    const { connection, log } = recordingConnection();
    const group = createGroupCommit(connection);
    const seen: (Knex.Transaction | null)[] = [];
    await group.run(async (trx) => seen.push(trx), { solo: true });
    expect(seen).toEqual([null]);
    expect(log).toEqual([]);
    const firstMayEnd = gate();
    const a = group.run(async (trx) => {
      seen.push(trx);
      await firstMayEnd.opened;
    });
    const b = group.run(async (trx) => seen.push(trx), { solo: true });
    const c = group.run(async (trx) => seen.push(trx), { solo: true });
    firstMayEnd.open();
    await Promise.all([a, b, c]);
    expect(seen.slice(1).every((trx) => trx !== null)).toBe(true);
    expect(commits(log)).toEqual(['commit 1 done']);
  });

  it('runs a single statement in a group without a savepoint: SQLite undoes one that fails on a constraint by itself', async () => {
    const { connection, log } = recordingConnection();
    const group = createGroupCommit(connection);
    const firstMayEnd = gate();
    const a = group.run(async () => firstMayEnd.opened);
    const taken = Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT' });
    const b = group.run(
      async () => {
        throw taken;
      },
      { solo: true, atomic: true },
    );
    const c = group.run(async () => 'c', { solo: true, atomic: true });
    firstMayEnd.open();
    await a;
    await expect(b).rejects.toBe(taken);
    expect(await c).toBe('c');
    expect(log).toEqual(['begin 1', 'commit 1 starts', 'commit 1 done']);
  });

  it('fails the whole group when a single statement fails in a way that may have ended the transaction', async () => {
    const { connection, log } = recordingConnection();
    const group = createGroupCommit(connection);
    const firstMayEnd = gate();
    const a = group.run(async () => firstMayEnd.opened);
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const b = group.run(
      async () => {
        throw full;
      },
      { solo: true, atomic: true },
    );
    firstMayEnd.open();
    await expect(a).rejects.toBe(full);
    await expect(b).rejects.toBe(full);
    expect(log).toEqual(['begin 1', 'rollback 1']);
  });

  it('bounds a group by its units', async () => {
    const { connection, log } = recordingConnection();
    const group = createGroupCommit(connection, { maxUnits: 2 });
    const firstMayEnd = gate();
    const a = group.run(async () => firstMayEnd.opened);
    const rest = [1, 2, 3, 4, 5].map(() => group.run(async () => undefined));
    firstMayEnd.open();
    await Promise.all([a, ...rest]);
    // a and one more, then two and two.
    expect(commits(log)).toEqual(['commit 1 done', 'commit 2 done', 'commit 3 done']);
    expect(log.filter((entry) => entry.startsWith('savepoint'))).toHaveLength(3);
  });

  it('fails a unit that waits too long for its turn instead of waiting forever', async () => {
    const { connection } = recordingConnection();
    const group = createGroupCommit(connection, { queueTimeoutMs: 50 });
    // A write inside a transaction's work that does not name the transaction waits for it.
    const outer = group.run(async () => group.run(async () => 'inner'));
    await expect(outer).rejects.toBeInstanceOf(QueueTimeoutError);
    expect(group.queued()).toBe(0);
    expect(await group.run(async () => 'after')).toBe('after');
  });
});

const Item = defineEntity({
  name: 'DurableItem',
  tableName: 'durable_items',
  properties: (p) => ({
    id: p.integer().primary(),
    name: p.string().length(64).unique(),
  }),
});

describe('SQLite durability', () => {
  let dataDir: string;
  const opened: Database[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-durability-'));
  });

  afterAll(async () => {
    for (const database of opened) await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function open(name: string, options: Pick<DatabaseOptions, 'sqliteSynchronous' | 'groupCommit'> = {}) {
    const database = await openDatabase({ url: join(dataDir, `${name}.sqlite`), dataDir, entities: [Item], ...options });
    opened.push(database);
    await internalsOf(database).knex.schema.createTable('durable_items', (t) => {
      t.increments('id');
      t.string('name', 64).notNullable().unique();
    });
    return database;
  }

  /** `synchronous` of the pool's write connection and of the reader: 2 is FULL, 1 NORMAL. */
  async function synchronousOf(database: Database) {
    const { knex, reader } = internalsOf(database);
    const [writer] = (await knex.raw('PRAGMA synchronous')) as { synchronous: number }[];
    return { writer: writer!.synchronous, reader: reader!.pragma('synchronous', { simple: true }) };
  }

  it('syncs every commit (synchronous = FULL) by default, on the writer, on the reader and on a connection the pool opens again', async () => {
    const database = await open('full');
    const { knex } = internalsOf(database);
    expect(await synchronousOf(database)).toEqual({ writer: 2, reader: 2 });
    expect(((await knex.raw('PRAGMA journal_mode')) as { journal_mode: string }[])[0]!.journal_mode).toBe('wal');
    // A connection the pool opens anew (as after an error) gets the same settings.
    await knex.client.destroy();
    knex.client.initializePool(knex.client.config);
    expect(await synchronousOf(database)).toEqual({ writer: 2, reader: 2 });
    expect(((await knex.raw('PRAGMA foreign_keys')) as { foreign_keys: number }[])[0]!.foreign_keys).toBe(1);
    expect(((await knex.raw('PRAGMA busy_timeout')) as { timeout: number }[])[0]!.timeout).toBe(5000);
  });

  it('takes synchronous = NORMAL when chosen, and then commits each transaction on its own', async () => {
    const database = await open('normal', { sqliteSynchronous: 'normal' });
    expect(await synchronousOf(database)).toEqual({ writer: 1, reader: 1 });
    const statements: string[] = [];
    const stop = database.observeStatements((sql) => statements.push(sql.toLowerCase()));
    await Promise.all([1, 2, 3].map((n) => database.transaction((tx) => database.insert(Item, { name: `normal-${n}` }, { tx }))));
    stop();
    expect(statements.filter((sql) => /^commit;?$/.test(sql))).toHaveLength(3);
  });

  it('commits concurrent writers together; one that fails rolls back alone; each answer comes once its write is committed', async () => {
    // Bounded by units only, so that a loaded machine cannot cut the group short.
    const database = await open('concurrent', { groupCommit: { maxGroupMs: 60_000 } });
    await database.insert(Item, { name: 'taken' });
    // A connection of its own, like another server process's: it sees only committed rows.
    const outside = new BetterSqlite(join(dataDir, 'concurrent.sqlite'), { readonly: true });
    const committed = (name: string) => outside.prepare('select count(*) as n from durable_items where name = ?').get(name) as { n: number };
    const statements: string[] = [];
    const stop = database.observeStatements((sql) => statements.push(sql.toLowerCase()));
    const seenAtAnswer = new Map<string, number>();
    const write = (name: string, how: 'transaction' | 'single') => {
      const written =
        how === 'transaction'
          ? database.transaction(async (tx) => {
              await database.insert(Item, { name: `${name}-a` }, { tx });
              return database.insert(Item, { name }, { tx });
            })
          : database.insert(Item, { name });
      return written.then((id) => {
        seenAtAnswer.set(name, committed(name).n);
        return id;
      });
    };
    const names = Array.from({ length: 12 }, (_, i) => `item-${i}`);
    const results = await Promise.allSettled([
      ...names.map((name, i) => write(name, i % 2 === 0 ? 'transaction' : 'single')),
      // Fails on the unique name after its first insert: that insert is rolled back with it.
      database.transaction(async (tx) => {
        await database.insert(Item, { name: 'doomed-a' }, { tx });
        return database.insert(Item, { name: 'taken' }, { tx });
      }),
      write('taken', 'single'),
    ]);
    stop();
    outside.close();
    expect(results.slice(0, names.length).every((result) => result.status === 'fulfilled')).toBe(true);
    const failures = results.slice(names.length).map((result) => (result.status === 'rejected' ? isUniqueViolation(result.reason) : result));
    expect(failures).toEqual([true, true]);
    // Every answered write was committed by the time it was answered.
    expect(names.map((name) => seenAtAnswer.get(name))).toEqual(names.map(() => 1));
    const stored = await database.rows(database.from(Item).orderBy('name'));
    expect(stored.map((row) => row.name)).toEqual(['taken', ...names.flatMap((name, i) => (i % 2 === 0 ? [name, `${name}-a`] : [name]))].sort());
    // 14 units, one commit: the first began the group, and the others arrived while it ran.
    expect(statements.filter((sql) => /^commit;?$/.test(sql))).toHaveLength(1);
    // A savepoint for each transaction after the first; single inserts need none.
    expect(statements.filter((sql) => sql === 'savepoint forgekit_unit')).toHaveLength(6);
    expect(statements.filter((sql) => sql === 'rollback to forgekit_unit')).toHaveLength(1);
  });

  it('runs a guarded insert in the group too', async () => {
    const database = await open('guarded');
    const insert = (name: string) =>
      database.insertGuarded(Item, { name }, { unlessExists: database.table(Item).where('name', name).select('id'), lockKey: `item:${name}` });
    const ids = await Promise.all([insert('once'), insert('once'), insert('twice'), insert('once')]);
    expect(ids.filter((id) => id !== null)).toHaveLength(2);
    expect(await database.count(database.table(Item))).toBe(2);
  });
});
