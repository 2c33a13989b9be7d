#!/usr/bin/env node
import { startServer } from './server.js';

const server = await startServer().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.kernel.log.info({ signal }, 'shutting down');
    server.close().then(
      () => process.exit(0),
      (error) => {
        server.kernel.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
