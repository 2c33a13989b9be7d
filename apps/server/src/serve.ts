/**
 * `forgekit serve` and `node dist/main.js`: the built server, in this process or as a cluster
 * of workers, stopped gracefully by SIGTERM or SIGINT (exit status 0 once in-flight requests
 * and jobs finished).
 */
import { isWorker, startPrimary, startWorker } from './cluster.js';
import { startServer, type StartedServer } from './server.js';
import { releaseYoungGeneration } from './young-generation.js';

export const SERVE_USAGE = `Usage: forgekit serve [--workers N]

Runs the built server (no build step) on HOST:PORT with the config from the
environment and FORGEKIT_CONFIG. SIGTERM or SIGINT stops it gracefully.

Options:
  --workers N   Serve from N processes on one port (default: FORGEKIT_WORKERS, or 1)
  -h, --help    Show this help`;

/** `--workers`, else `FORGEKIT_WORKERS`, else 1; an error message for anything but a whole number from 1. */
export function workerCount(flag: string | undefined, env: string | undefined = process.env.FORGEKIT_WORKERS): number | string {
  const text = flag ?? (env === '' ? undefined : env) ?? '1';
  if (!/^\d+$/.test(text) || Number(text) < 1) return `--workers must be a whole number from 1, not '${text}'`;
  return Number(text);
}

const fail = (error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
};

/** Stops `server` on the first SIGTERM or SIGINT, then exits 0 (1 when stopping failed). */
function exitOnSignals(server: StartedServer) {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
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
  return () => {
    if (stopping) return;
    stopping = true;
    server.close().finally(() => process.exit(0));
  };
}

export async function serve(workers: number): Promise<void> {
  if (isWorker()) {
    const server = await startWorker().catch(fail);
    releaseYoungGeneration();
    const stop = exitOnSignals(server);
    // The primary is gone (killed outright): stop rather than serve on unwatched.
    process.on('disconnect', stop);
    return;
  }
  if (workers > 1) {
    const primary = await startPrimary(workers).catch(fail);
    let stopping = false;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.on(signal, () => {
        if (stopping) return;
        stopping = true;
        primary.stop(signal).then((code) => process.exit(code));
      });
    }
    primary.failed.then((code) => process.exit(code));
    return;
  }
  const server = await startServer().catch(fail);
  releaseYoungGeneration();
  exitOnSignals(server);
}
