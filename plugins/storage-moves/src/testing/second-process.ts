/**
 * A second server process for the multi-process test: second-process.pg.test.ts run as a
 * process of its own, which boots a kernel on the given database and data directory. The two
 * processes talk through files in a signal directory: `ready`, `deliver-<id>` /
 * `delivered-<id>`, `ran-<id>`, and `stop`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestProcess, type TestProcess } from '@forgekit/testing';

/** What second-process.pg.test.ts is started with. */
export const SECOND_PROCESS_ENV = {
  databaseUrl: 'FORGEKIT_MOVES_SECOND_DATABASE_URL',
  dataDir: 'FORGEKIT_MOVES_SECOND_DATA_DIR',
  signalDir: 'FORGEKIT_MOVES_SECOND_SIGNAL_DIR',
} as const;

/** The storages both processes share, under their common data directory. */
export const SHARED_STORAGES = { repositories: { storages: { second: 'second-storage' } } };

const here = dirname(fileURLToPath(import.meta.url));

export type SecondProcess = TestProcess;

export function startSecondProcess(options: { databaseUrl: string; dataDir: string; signalDir: string }): SecondProcess {
  return startTestProcess({
    testFile: join(here, '../moves/second-process.pg.test.ts'),
    cwd: join(here, '../../../..'),
    env: {
      [SECOND_PROCESS_ENV.databaseUrl]: options.databaseUrl,
      [SECOND_PROCESS_ENV.dataDir]: options.dataDir,
      [SECOND_PROCESS_ENV.signalDir]: options.signalDir,
    },
  });
}
