/** Serves a test app on a loopback port, for clients that need real HTTP (git). */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestApp } from '@forgekit/plugin-core/testing';

export async function listen(app: TestApp): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(app.kernel.nodeListener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
