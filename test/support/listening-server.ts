/**
 * A real server on a loopback port for black-box tests: the given plugins, a fresh
 * SQLite data dir (or a fresh PostgreSQL database when FORGEKIT_TEST_DATABASE_URL is
 * set), and a root token for the client.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createKernel, type ForgePlugin, type Kernel } from '@forgekit/kernel';
import { createTestDatabase } from '@forgekit/testing';
import { allPlugins } from '@forgekit/server';
import { recordAnswers } from './answer-recorder.js';

export interface ListeningServer {
  url: string;
  rootToken: string;
  kernel: Kernel;
  /** Stops the server; fails, after cleaning up, when an answer it gave did not match its OpenAPI document. */
  close(): Promise<void>;
}

export interface ListeningServerOptions {
  /**
   * Configure `externalUrl` as the URL the server listens at (default). Without it, links follow
   * each request's host, and links built outside a request use `http://localhost:<port>`, as a
   * server on every interface does.
   */
  externalUrl?: boolean;
  /** Plugin config beside core's root token, by plugin id (a second repository storage, say). */
  plugins?: Record<string, unknown>;
}

export async function startListeningServer(plugins: readonly ForgePlugin<any>[] = allPlugins, options: ListeningServerOptions = {}): Promise<ListeningServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'forgekit-blackbox-'));
  const database = await createTestDatabase(undefined, { plugins });
  const rootToken = `fkpat-blackbox-${Math.random().toString(36).slice(2)}${Date.now()}`;
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kernel = await createKernel({
    plugins,
    serverUrl: `http://localhost:${(server.address() as AddressInfo).port}`,
    config: {
      dataDir,
      databaseUrl: database.url === ':memory:' ? undefined : database.url,
      externalUrl: options.externalUrl === false ? undefined : url,
      logLevel: 'silent',
      plugins: { ...options.plugins, core: { rootToken } },
    },
  });
  await kernel.start();
  const answers = recordAnswers(kernel.nodeListener, () => kernel.openApi());
  server.on('request', answers.listener);
  return {
    url,
    rootToken,
    kernel,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await kernel.stop();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
      answers.writeCoverage();
      const problems = answers.problems();
      if (problems.length > 0) throw new Error(`answers that do not match the OpenAPI document:\n${problems.join('\n')}`);
    },
  };
}
