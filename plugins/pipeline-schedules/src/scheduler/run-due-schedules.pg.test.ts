/**
 * Exactly once across kernels: two kernels (each with its own connection pool) on one
 * PostgreSQL database run the tick at the same moment, round after round, and every
 * due run gives one pipeline. run-due-schedules.processes.pg.test.ts does the same
 * with two operating-system processes.
 */
import type { Kernel } from '@forgekit/kernel';
import { seedFixtures, type Fixtures } from '@forgekit/plugin-core/testing';
import { createTestDatabase, type TestDatabase } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PipelineEntity } from '../entities/pipeline.js';
import { PipelineScheduleEntity } from '../entities/pipeline-schedule.js';
import { bootScheduleKernel, kernelClient } from '../testing/pg-kernels.js';
import { createSchedule, makeDue, setScheduleLimit } from '../testing/schedule-fixtures.js';
import { TICK_JOB } from './run-due-schedules.js';

const SCHEDULES = 6;
const ROUNDS = 5;

describe.skipIf(!process.env.FORGEKIT_TEST_DATABASE_URL)('the tick on two server processes sharing PostgreSQL', () => {
  let database: TestDatabase;
  const kernels: Kernel[] = [];
  const closers: (() => Promise<void>)[] = [];
  let fixtures: Fixtures;

  async function boot(): Promise<Kernel> {
    const { kernel, close } = await bootScheduleKernel(database.url);
    kernels.push(kernel);
    closers.push(close);
    return kernel;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    // One after the other: the first applies the migrations, the second finds them done.
    const first = await boot();
    await boot();
    fixtures = await seedFixtures(first);
  });

  afterAll(async () => {
    for (const close of closers) await close();
    await database?.drop();
  });

  it('creates exactly one pipeline per due run', async () => {
    const [first, second] = kernels as [Kernel, Kernel];
    const db = first.database;
    const app = kernelClient(first, fixtures) as unknown as Parameters<typeof createSchedule>[0];
    await setScheduleLimit(app, 0);
    const ids: number[] = [];
    for (let index = 0; index < SCHEDULES; index++) ids.push((await createSchedule(app, 'developer', { cron: '* * * * *' })).id);

    for (let round = 1; round <= ROUNDS; round++) {
      for (const id of ids) await makeDue({ kernel: first }, id);
      await Promise.all([first.jobs.run(TICK_JOB), second.jobs.run(TICK_JOB), first.jobs.run(TICK_JOB), second.jobs.run(TICK_JOB)]);
      const counts = await db.values(db.table(PipelineEntity).select({ scheduleId: 'pipelineScheduleId' }).count({ n: '*' }).groupBy('pipelineScheduleId'), {
        scheduleId: 'number',
        n: 'number',
      });
      expect(Object.fromEntries(counts.map((row) => [row.scheduleId, row.n]))).toEqual(Object.fromEntries(ids.map((id) => [id, round])));
    }

    const pipelines = await db.rows(db.from(PipelineEntity).orderBy('iid'));
    expect(pipelines.map((row) => row.iid)).toEqual(Array.from({ length: SCHEDULES * ROUNDS }, (_, index) => index + 1));
    for (const row of await db.rows(db.from(PipelineScheduleEntity))) expect(row.nextRunAt.getTime()).toBeGreaterThan(Date.now() - 1000);
  });
});
