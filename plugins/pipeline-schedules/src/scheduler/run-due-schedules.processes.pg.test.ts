/**
 * Exactly once across operating-system processes: two server processes on one
 * PostgreSQL database tick in a loop while schedules fall due round after round;
 * every due run gives one pipeline and pipeline iids stay gapless.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Kernel } from '@forgekit/kernel';
import { seedFixtures } from '@forgekit/plugin-core/testing';
import { createTestDatabase, startTestProcess, type TestDatabase, type TestProcess } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PipelineEntity } from '../entities/pipeline.js';
import { PipelineScheduleEntity } from '../entities/pipeline-schedule.js';
import { bootScheduleKernel, kernelClient, TICK_ENV } from '../testing/pg-kernels.js';
import { createSchedule, setScheduleLimit } from '../testing/schedule-fixtures.js';

const SCHEDULES = 5;
const ROUNDS = 8;
const here = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = join(here, '../../../..');

interface Ticker extends TestProcess {
  name: string;
}

/** A second vitest process running tick-process.pg.test.ts on the given database. */
function startTicker(name: string, databaseUrl: string, signalDir: string): Ticker {
  const child = startTestProcess({
    testFile: join(here, 'tick-process.pg.test.ts'),
    cwd: repositoryRoot,
    env: { [TICK_ENV.databaseUrl]: databaseUrl, [TICK_ENV.signalDir]: signalDir, [TICK_ENV.name]: name },
  });
  return { name, ...child };
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

describe.skipIf(!process.env.FORGEKIT_TEST_DATABASE_URL)('the tick in two server processes sharing PostgreSQL', () => {
  let database: TestDatabase;
  let kernel: Kernel;
  let closeKernel: () => Promise<void>;
  let signalDir: string;
  const tickers: Ticker[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    ({ kernel, close: closeKernel } = await bootScheduleKernel(database.url));
    signalDir = await mkdtemp(join(tmpdir(), 'forgekit-schedules-ticks-'));
  });

  afterAll(async () => {
    for (const ticker of tickers) ticker.kill();
    await closeKernel?.();
    await database?.drop();
    if (signalDir) await rm(signalDir, { recursive: true, force: true });
  });

  it('creates exactly one pipeline per due run', { timeout: 240_000 }, async () => {
    const app = kernelClient(kernel, await seedFixtures(kernel)) as unknown as Parameters<typeof createSchedule>[0];
    await setScheduleLimit(app, 0);
    const ids: number[] = [];
    // A yearly cron: no run comes due on its own while the test runs, only the rounds below.
    for (let index = 0; index < SCHEDULES; index++) ids.push((await createSchedule(app, 'developer', { cron: '0 0 1 1 *' })).id);
    const db = kernel.database;

    tickers.push(startTicker('first', database.url, signalDir), startTicker('second', database.url, signalDir));
    await waitUntil('both processes to boot', async () => (await readdir(signalDir)).filter((name) => name.startsWith('ready-')).length === 2, 180_000);

    for (let round = 1; round <= ROUNDS; round++) {
      await db.update(PipelineScheduleEntity, { id: { $in: ids } }, { nextRunAt: new Date(Date.now() - 60_000) });
      await waitUntil(
        `round ${round} to fire`,
        async () => (await db.count(db.from(PipelineScheduleEntity).where('nextRunAt', '<=', new Date()))) === 0,
        30_000,
      );
    }
    await writeFile(join(signalDir, 'stop'), '');
    const codes = await Promise.all(tickers.map((ticker) => ticker.exited));
    expect(codes, tickers.map((ticker) => ticker.output.join('')).join('\n')).toEqual([0, 0]);
    const ticks = await Promise.all(tickers.map(async ({ name }) => Number(await readFile(join(signalDir, `ticks-${name}`), 'utf8'))));
    for (const count of ticks) expect(count).toBeGreaterThan(ROUNDS);

    const counts = await db.values(db.table(PipelineEntity).select({ scheduleId: 'pipelineScheduleId' }).count({ n: '*' }).groupBy('pipelineScheduleId'), {
      scheduleId: 'number',
      n: 'number',
    });
    expect(Object.fromEntries(counts.map((row) => [row.scheduleId, row.n]))).toEqual(Object.fromEntries(ids.map((id) => [id, ROUNDS])));
    const pipelines = await db.rows(db.from(PipelineEntity).orderBy('iid'));
    expect(pipelines.map((row) => row.iid)).toEqual(Array.from({ length: SCHEDULES * ROUNDS }, (_, index) => index + 1));
  });
});
