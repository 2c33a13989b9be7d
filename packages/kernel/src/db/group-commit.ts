/**
 * Group commit for SQLite with `synchronous = FULL`: every commit waits for its write-ahead
 * log to reach the disk (an fsync, milliseconds on most disks), so write transactions that
 * arrive while one is running or committing are run together, one after another, inside a
 * single outer transaction that commits once: one fsync for the whole group.
 *
 * - A unit of work (a `database.transaction`, or a single write) gets its answer only once
 *   the group's commit returned, so nothing is answered before it is on disk.
 * - Every unit after the first of a group runs inside a savepoint: one that fails is rolled
 *   back to its savepoint alone, and the others of its group still commit. The first needs
 *   no savepoint: when it fails, the group (only it so far) is rolled back. Nor does a
 *   single statement, which SQLite undoes by itself when it fails on a constraint.
 * - A group is bounded (units and milliseconds of work), so a steady stream of writes still
 *   commits regularly.
 * - Works in a group run one at a time on the one write connection, as they did before,
 *   each seeing the writes of those before it; reads outside the transaction (the read
 *   connection) see a group's writes once it committed, and each unit's caller only goes on
 *   after that.
 *
 * SQLite has no group commit of its own (PostgreSQL flushes concurrent commits together
 * already), and MikroORM and knex have none either; hence this small queue.
 */
import type { Knex } from '@mikro-orm/knex';

/** What the group commit drives: the outer transaction's life, and savepoints in it. */
export interface GroupConnection {
  begin(): Promise<Knex.Transaction>;
  commit(trx: Knex.Transaction): Promise<void>;
  rollback(trx: Knex.Transaction): Promise<void>;
}

/**
 * A unit's work: `trx` is the group's transaction, or null when the unit runs on its own
 * outside any transaction (`solo` units, when nothing else waits).
 */
export type Work<T> = (trx: Knex.Transaction | null) => Promise<T>;

export interface GroupCommitOptions {
  /** Units in one group at most. */
  maxUnits?: number;
  /** Once a group has run this long, it commits before taking the next unit. */
  maxGroupMs?: number;
  /**
   * How long a unit may wait for its turn before it fails, as knex fails a query that
   * waits that long for a connection: a write issued inside a transaction's work without
   * naming its `{ tx }` would otherwise wait for that very transaction forever.
   */
  queueTimeoutMs?: number;
}

export interface UnitOptions {
  /** A single write, which runs outside a transaction (autocommit) when no other unit waits, as it would without group commit. */
  solo?: boolean;
  /**
   * One statement, which SQLite undoes by itself when it fails: it needs no savepoint in a
   * group. (A failure that may have ended the whole transaction fails the group.)
   */
  atomic?: boolean;
}

export interface GroupCommit {
  /** Runs `work` in the next group; answers its result once the group committed, or its error. */
  run<T>(work: Work<T>, options?: UnitOptions): Promise<T>;
  /** Units waiting for their turn (not counting the one running). */
  queued(): number;
  /** Waits for the queued units to finish. */
  drain(): Promise<void>;
}

interface Unit {
  work: Work<unknown>;
  solo: boolean;
  atomic: boolean;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout;
}

/** An outcome held back until the group's commit says whether the unit's writes are on disk. */
interface Done {
  unit: Unit;
  value?: unknown;
  error?: unknown;
  failed: boolean;
}

const SAVEPOINT = 'forgekit_unit';

/** SQLite's result codes for a statement that failed alone, its transaction intact. */
const STATEMENT_ERRORS = new Set(['SQLITE_CONSTRAINT', 'SQLITE_ERROR', 'SQLITE_MISMATCH', 'SQLITE_RANGE', 'SQLITE_TOOBIG']);

export class QueueTimeoutError extends Error {
  override name = 'QueueTimeoutError';
}

export function createGroupCommit(connection: GroupConnection, options: GroupCommitOptions = {}): GroupCommit {
  const maxUnits = options.maxUnits ?? 64;
  const maxGroupMs = options.maxGroupMs ?? 25;
  const queueTimeoutMs = options.queueTimeoutMs ?? 60_000;
  const queue: Unit[] = [];
  let running: Promise<void> | null = null;

  function take(): Unit | undefined {
    const unit = queue.shift();
    if (unit) clearTimeout(unit.timer);
    return unit;
  }

  function settle(done: readonly Done[]) {
    for (const { unit, value, error, failed } of done) {
      if (failed) unit.reject(error);
      else unit.resolve(value);
    }
  }

  /** The group lost its transaction (its commit failed, or SQLite rolled it back): none of its units' writes landed. */
  function lost(done: readonly Done[], error: unknown) {
    settle(done.map((entry) => (entry.failed ? entry : { unit: entry.unit, error, failed: true })));
  }

  /**
   * Whether a failed single statement left its transaction as it was. SQLite undoes a
   * statement that fails on a constraint, a type or a size, or that could not be prepared,
   * and nothing else; after the errors that may end the whole transaction (a full disk, I/O,
   * memory, a lock: SQLITE_FULL, SQLITE_IOERR, ...) the group cannot be trusted. An error
   * without a SQLite code came before any statement ran.
   */
  function statementUndone(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code !== 'string' || !code.startsWith('SQLITE_') || STATEMENT_ERRORS.has(code);
  }

  async function runGroup(): Promise<void> {
    const first = take()!;
    if (first.solo && queue.length === 0) {
      // Alone and a single statement: its own autocommit is its transaction.
      await first.work(null).then(first.resolve, first.reject);
      return;
    }
    let trx: Knex.Transaction;
    try {
      trx = await connection.begin();
    } catch (error) {
      first.reject(error);
      return;
    }
    const started = performance.now();
    const done: Done[] = [];
    try {
      done.push({ unit: first, value: await first.work(trx), failed: false });
    } catch (error) {
      await connection.rollback(trx).catch(() => undefined);
      first.reject(error);
      return;
    }
    while (queue.length > 0 && done.length < maxUnits && performance.now() - started < maxGroupMs) {
      const unit = take()!;
      if (!unit.atomic) {
        try {
          // Left open (released by the commit), so a unit costs one statement more, not two.
          await trx.raw(`savepoint ${SAVEPOINT}`);
        } catch (error) {
          await connection.rollback(trx).catch(() => undefined);
          lost([...done, { unit, error, failed: true }], error);
          return;
        }
      }
      try {
        done.push({ unit, value: await unit.work(trx), failed: false });
      } catch (error) {
        let alive = unit.atomic ? statementUndone(error) : true;
        if (alive && !unit.atomic) {
          // Back to the newest savepoint of that name: this unit's.
          alive = await trx.raw(`rollback to ${SAVEPOINT}`).then(
            () => true,
            () => false,
          );
        }
        if (!alive) {
          // SQLite rolled the whole transaction back (a full disk, an I/O error), or may
          // have: the units before this one went with it.
          await connection.rollback(trx).catch(() => undefined);
          lost([...done, { unit, error, failed: true }], error);
          return;
        }
        done.push({ unit, error, failed: true });
      }
    }
    try {
      await connection.commit(trx);
    } catch (error) {
      await connection.rollback(trx).catch(() => undefined);
      lost(done, error);
      return;
    }
    settle(done);
  }

  async function runAll() {
    while (queue.length > 0) await runGroup();
    running = null;
  }

  return {
    run<T>(work: Work<T>, runOptions: UnitOptions = {}): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const unit: Unit = {
          work,
          solo: runOptions.solo === true,
          atomic: runOptions.atomic === true,
          resolve: resolve as (value: unknown) => void,
          reject,
          timer: setTimeout(() => {
            const index = queue.indexOf(unit);
            if (index < 0) return;
            queue.splice(index, 1);
            reject(
              new QueueTimeoutError(`A write waited ${queueTimeoutMs} ms for its turn on the database; a write inside a transaction must name its { tx }`),
            );
          }, queueTimeoutMs),
        };
        unit.timer.unref();
        queue.push(unit);
        running ??= runAll();
      });
    },
    queued: () => queue.length,
    async drain() {
      while (running) await running;
    },
  };
}
