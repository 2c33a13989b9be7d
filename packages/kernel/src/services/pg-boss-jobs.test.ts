import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { KernelConfig } from '../config/kernel-config.js';
import { PgBossJobService } from './pg-boss-jobs.js';

const silent = pino({ level: 'silent' });
const databaseUrl = process.env.FORGEKIT_TEST_DATABASE_URL;

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe.skipIf(!databaseUrl)('PgBossJobService', () => {
  let jobs: PgBossJobService | undefined;
  afterEach(async () => {
    await jobs?.stop();
    jobs = undefined;
  });

  const service = () => (jobs = new PgBossJobService({ databaseUrl } as KernelConfig, silent));

  it('runs as many jobs of a name at once as its concurrency, and fails and retries a failing one alone', { timeout: 20_000 }, async () => {
    const jobs = service();
    const runs: number[] = [];
    const allStarted = deferred();
    const retried = deferred();
    jobs.define(
      'test:side-by-side',
      async ({ id }: { id: number }) => {
        runs.push(id);
        if (runs.length === 3) allStarted.resolve();
        // One at a time, the first job would wait here for ever.
        await allStarted.promise;
        if (id !== 3) return;
        if (runs.filter((run) => run === 3).length === 1) throw new Error('first try fails');
        retried.resolve();
      },
      { concurrency: 3 },
    );
    await jobs.start({});
    for (const id of [1, 2, 3]) await jobs.enqueue('test:side-by-side', { id }, { retryLimit: 1, retryDelay: 0 });
    await retried.promise;
    await jobs.stop();
    expect(runs.slice(0, 3).sort()).toEqual([1, 2, 3]);
    // Only the failed job ran again: failing the three together would have retried 1 and 2 too.
    expect(runs.slice(3)).toEqual([3]);
  });

  it('waits on stop for the jobs every worker runs', { timeout: 20_000 }, async () => {
    const jobs = service();
    const gate = deferred();
    const allStarted = deferred();
    let started = 0;
    let finished = 0;
    jobs.define(
      'test:drained',
      async () => {
        started += 1;
        if (started === 2) allStarted.resolve();
        await gate.promise;
        finished += 1;
      },
      { concurrency: 2 },
    );
    await jobs.start({});
    await jobs.enqueue('test:drained', {});
    await jobs.enqueue('test:drained', {});
    await allStarted.promise;
    const stopping = jobs.stop();
    expect(finished).toBe(0);
    gate.resolve();
    await stopping;
    expect(finished).toBe(2);
  });
});
