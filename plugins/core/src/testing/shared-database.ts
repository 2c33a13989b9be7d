/**
 * Two server processes on one database, for tests of what one process must see of another's
 * writes: the seeded test app, and further kernels on its database (the suite's PostgreSQL
 * database, or a SQLite file in a temporary folder), each as another process would run.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKernel, type ForgePlugin, type Kernel, type KernelConfigInput } from '@forgekit/kernel';
import { corePlugin } from '../plugin.js';
import { createTestApp, type TestApp } from './create-test-app.js';

export interface SharedDatabaseApps {
  /** The seeded test app (core and the plugins). */
  app: TestApp;
  /** Starts a kernel of core and the plugins on the app's database, with `config` added; the caller stops it. */
  kernelOnSameDatabase(name: string, config?: Partial<KernelConfigInput>): Promise<Kernel>;
  /** Closes the app and removes the temporary folder. */
  close(): Promise<void>;
}

export async function createSharedDatabaseApps(plugins: readonly ForgePlugin<any>[] = []): Promise<SharedDatabaseApps> {
  const dir = await mkdtemp(join(tmpdir(), 'forgekit-shared-'));
  const onPostgres = !!process.env.FORGEKIT_TEST_DATABASE_URL;
  const app = await createTestApp({ plugins: [...plugins], config: onPostgres ? {} : { databaseUrl: join(dir, 'shared.sqlite') } });
  return {
    app,
    async kernelOnSameDatabase(name, config = {}) {
      const kernel = await createKernel({
        plugins: [corePlugin, ...plugins],
        config: {
          dataDir: join(dir, name),
          databaseUrl: app.kernel.config.databaseUrl,
          secretsKeyFile: join(app.kernel.config.dataDir, 'secrets.key'),
          logLevel: 'silent',
          externalUrl: 'http://localhost',
          ...config,
        },
      });
      await kernel.start();
      return kernel;
    },
    async close() {
      await app.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A JSON request to a kernel as the token's owner; answers the status, the parsed body and `x-total`. */
export async function askKernel(kernel: Kernel, method: string, path: string, secret: string, body?: unknown) {
  const res = await kernel.fetch(
    new Request(`http://localhost/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': secret, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return { status: res.status, body: (await res.json()) as unknown, total: res.headers.get('x-total') };
}

/**
 * Waits until the token's last use is stamped, using it on `kernel` as it asks. A token's first
 * answer is followed by that stamp, which moves the change mark: a test that counts what a
 * repeated request reads lets each caller's stamp land first, so none lands while it counts.
 */
export async function lastUseStamped(kernel: Kernel, secret: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const self = await askKernel(kernel, 'GET', '/personal_access_tokens/self', secret);
    if ((self.body as { last_used_at?: string | null }).last_used_at) return;
    if (Date.now() > deadline) throw new Error(`the token's last use was not stamped within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
