/** Server processes on one PostgreSQL database for the scheduler's exactly-once tests. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKernel, type Kernel } from '@forgekit/kernel';
import { corePlugin } from '@forgekit/plugin-core';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import type { Fixtures } from '@forgekit/plugin-core/testing';
import { pipelineSchedulesPlugin } from '../plugin.js';

/** What tick-process.pg.test.ts is started with: the database, a directory for signals, and its own name. */
export const TICK_ENV = {
  databaseUrl: 'FORGEKIT_SCHEDULES_TICK_DATABASE_URL',
  signalDir: 'FORGEKIT_SCHEDULES_TICK_SIGNAL_DIR',
  name: 'FORGEKIT_SCHEDULES_TICK_NAME',
} as const;

/** Every process on one database needs the same secrets key; each has a data dir of its own, so none is generated. */
const SHARED_SECRETS_KEY = 'schedules-processes-share-this-secrets-key';

/** A kernel with the schedules plugin on `databaseUrl`, in a data dir of its own; `close` stops it and removes the dir. */
export async function bootScheduleKernel(databaseUrl: string): Promise<{ kernel: Kernel; close: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'forgekit-schedules-pg-'));
  const kernel = await createKernel({
    plugins: [corePlugin, planLimitsPlugin, pipelineSchedulesPlugin],
    config: { dataDir, databaseUrl, secretsKey: SHARED_SECRETS_KEY, logLevel: 'silent', externalUrl: 'http://localhost' },
  });
  return {
    kernel,
    async close() {
      await kernel.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Requests into one kernel, shaped like the test app's helpers the fixtures use. */
export function kernelClient(kernel: Kernel, fixtures: Fixtures) {
  const request = async (method: string, path: string, body: unknown, token: string | undefined) => {
    const headers = new Headers({ 'Content-Type': 'application/json' });
    if (token) headers.set('PRIVATE-TOKEN', fixtures.tokens[token as keyof Fixtures['tokens']] ?? token);
    const response = await kernel.fetch(
      new Request(`http://localhost${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
    );
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
