/**
 * The test app every plugin's tests use: the real kernel with core and the given plugins on
 * in-memory SQLite (or a fresh PostgreSQL database), one seeded user and token per role,
 * `test-group` and its private `test-group/test-project`, and requests with no port.
 */
import type { ForgePlugin, KernelConfigInput } from '@forgekit/kernel';
import { createTestKernelApp, type TestKernelApp } from '@forgekit/testing';
import { corePlugin } from '../plugin.js';
import { seedFixtures, type Fixtures } from './seed.js';

export type TestApp = TestKernelApp & Fixtures;

export interface TestAppOptions {
  plugins?: readonly ForgePlugin<any>[];
  /** Extra kernel config (plugin sections under `plugins`). */
  config?: Partial<KernelConfigInput>;
  /** Skip the per-role users, group and project. */
  seed?: boolean;
}

export function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const plugins = [corePlugin, ...(options.plugins ?? []).filter((plugin) => plugin.id !== 'core')];
  return createTestKernelApp<Fixtures>({ plugins, config: options.config, seed: options.seed === false ? undefined : seedFixtures });
}
