/**
 * Exactly once across server processes: two kernels on one PostgreSQL database run
 * the tick at the same moment, round after round, and every due run gives one pipeline.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKernel, type Kernel } from '@forgekit/kernel';
import { corePlugin } from '@forgekit/plugin-core';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { createTestDatabase, seedFixtures, type Fixtures, type TestDatabase } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pipelineSchedulesPlugin } from '../plugin.js';
import { createSchedule, makeDue, setScheduleLimit } from '../testing/schedule-fixtures.js';
import { TICK_JOB } from './run-due-schedules.js';

const SCHEDULES = 6;
const ROUNDS = 5;

describe.skipIf(!process.env.FORGEKIT_TEST_DATABASE_URL)('the tick on two server processes sharing PostgreSQL', () => {
  let database: TestDatabase;
  const dataDirs: string[] = [];
  const kernels: Kernel[] = [];
  let fixtures: Fixtures;

  async function boot(): Promise<Kernel> {
    const dataDir = await mkdtemp(join(tmpdir(), 'forgekit-schedules-pg-'));
    dataDirs.push(dataDir);
    const kernel = await createKernel({
      plugins: [corePlugin, planLimitsPlugin, pipelineSchedulesPlugin],
      config: { dataDir, databaseUrl: database.url, logLevel: 'silent', externalUrl: 'http://localhost' },
    });
    kernels.push(kernel);
    return kernel;
  }

  /** Requests through the first process, shaped like the test app's helpers. */
  function client(kernel: Kernel) {
    const request = async (method: string, path: string, body: unknown, token: string | undefined) => {
      const headers = new Headers({ 'Content-Type': 'application/json' });
      if (token) headers.set('PRIVATE-TOKEN', fixtures.tokens[token as keyof Fixtures['tokens']] ?? token);
      const response = await kernel.fetch(new Request(`http://localhost${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null, text, headers: response.headers };
    };
    return {
      ...fixtures,
      kernel,
      post: (path: string, body?: unknown, options: { token?: string } = {}) => request('POST', path, body, options.token),
      put: (path: string, body?: unknown, options: { token?: string } = {}) => request('PUT', path, body, options.token),
    };
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    // One after the other: the first applies the migrations, the second finds them done.
    const first = await boot();
    await boot();
    fixtures = await seedFixtures(first);
  });

  afterAll(async () => {
    for (const kernel of kernels) await kernel.stop();
    await database?.drop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  it('creates exactly one pipeline per due run', async () => {
    const [first, second] = kernels as [Kernel, Kernel];
    const app = client(first) as unknown as Parameters<typeof createSchedule>[0];
    await setScheduleLimit(app, 0);
    const ids: number[] = [];
    for (let index = 0; index < SCHEDULES; index++) ids.push((await createSchedule(app, 'developer', { cron: '* * * * *' })).id);

    for (let round = 1; round <= ROUNDS; round++) {
      for (const id of ids) await makeDue({ kernel: first }, id);
      await Promise.all([first.jobs.run(TICK_JOB), second.jobs.run(TICK_JOB), first.jobs.run(TICK_JOB), second.jobs.run(TICK_JOB)]);
      const counts: { pipeline_schedule_id: number; n: string | number }[] = await first.database.knex('ci_pipelines')
        .select('pipeline_schedule_id')
        .count({ n: '*' })
        .groupBy('pipeline_schedule_id');
      expect(Object.fromEntries(counts.map((row) => [row.pipeline_schedule_id, Number(row.n)]))).toEqual(Object.fromEntries(ids.map((id) => [id, round])));
    }

    const iids: { iid: number }[] = await first.database.knex('ci_pipelines').select('iid').orderBy('iid');
    expect(iids.map((row) => row.iid)).toEqual(Array.from({ length: SCHEDULES * ROUNDS }, (_, index) => index + 1));
    const nextRuns: { next_run_at: Date }[] = await first.database.knex('ci_pipeline_schedules').select('next_run_at');
    for (const row of nextRuns) expect(new Date(row.next_run_at).getTime()).toBeGreaterThan(Date.now() - 1000);
  });
});
