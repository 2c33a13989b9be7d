/**
 * One server process of the two-process scheduler test: started by
 * run-due-schedules.processes.pg.test.ts with a database and a signal directory, it
 * reports ready under its name, ticks until the stop file appears, then reports
 * its tick count.
 * Skipped unless started that way.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { bootScheduleKernel, TICK_ENV } from '../testing/pg-kernels.js';
import { TICK_JOB } from './run-due-schedules.js';

const databaseUrl = process.env[TICK_ENV.databaseUrl];
const signalDir = process.env[TICK_ENV.signalDir];
const name = process.env[TICK_ENV.name];

describe.skipIf(!databaseUrl || !signalDir || !name)('a ticking server process', () => {
  it('ticks until told to stop', { timeout: 300_000 }, async () => {
    const { kernel, close } = await bootScheduleKernel(databaseUrl!);
    let ticks = 0;
    try {
      await writeFile(join(signalDir!, `ready-${name}`), '');
      while (!existsSync(join(signalDir!, 'stop'))) {
        await kernel.jobs.run(TICK_JOB);
        ticks++;
        await sleep(5);
      }
      await writeFile(join(signalDir!, `ticks-${name}`), String(ticks));
    } finally {
      await close();
    }
    expect(ticks).toBeGreaterThan(0);
  });
});
