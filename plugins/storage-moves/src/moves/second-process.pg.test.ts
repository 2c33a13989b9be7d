/**
 * The second server process of multi-process.test.ts: started by it with the database, the
 * data directory and a signal directory, it takes move jobs from the queue both processes
 * share, runs each move the first process delivers to it directly (`deliver-<id>`, answered
 * with `delivered-<id>`), records every move it copies (`ran-<id>`), and stops at `stop`.
 * Skipped unless started that way.
 */
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createKernel } from '@forgekit/kernel';
import { corePlugin } from '@forgekit/plugin-core';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { describe, expect, it } from 'vitest';
import { createStorageMovesPlugin } from '../plugin.js';
import { SECOND_PROCESS_ENV, SHARED_STORAGES } from '../testing/second-process.js';
import { until } from '../testing/move-test-app.js';
import { MOVE_JOB } from './move-scheduler.js';

const databaseUrl = process.env[SECOND_PROCESS_ENV.databaseUrl];
const dataDir = process.env[SECOND_PROCESS_ENV.dataDir];
const signalDir = process.env[SECOND_PROCESS_ENV.signalDir];

describe.skipIf(!databaseUrl || !dataDir || !signalDir)('a second server process running storage moves', () => {
  it('runs the moves it is given until told to stop', { timeout: 300_000 }, async () => {
    const signal = (name: string) => writeFile(join(signalDir!, name), '');
    const kernel = await createKernel({
      plugins: [corePlugin, repositoriesPlugin, createStorageMovesPlugin({ hooks: { afterCopy: (move) => signal(`ran-${move.id}`) } })],
      config: { dataDir: dataDir!, databaseUrl: databaseUrl!, logLevel: 'silent', externalUrl: 'http://localhost', plugins: SHARED_STORAGES },
    });
    await kernel.start();
    const delivered: number[] = [];
    try {
      await signal('ready');
      const stopped = () => existsSync(join(signalDir!, 'stop'));
      while (!stopped()) {
        let deliveries: number[] = [];
        await until(
          async () => {
            const names = await readdir(signalDir!);
            deliveries = names.filter((name) => name.startsWith('deliver-')).map((name) => Number(name.slice('deliver-'.length)));
            deliveries = deliveries.filter((id) => !delivered.includes(id));
            return deliveries.length > 0 || stopped();
          },
          'a delivery or the stop signal',
          300_000,
        );
        for (const moveId of deliveries) {
          await kernel.jobs.run(MOVE_JOB, { moveId });
          delivered.push(moveId);
          await signal(`delivered-${moveId}`);
        }
      }
    } finally {
      await kernel.stop();
    }
    expect(delivered.length).toBeGreaterThan(0);
  });
});
