/**
 * `--workers N`: N server processes (node:cluster) on one port. The primary validates the
 * config, checks the port, migrates once, then forks the workers and watches them; each
 * worker is a whole server on the shared port. `/-/metrics` in any worker answers for all
 * of them: the worker asks the primary, which adds up every worker's metrics.
 */
import cluster, { type Worker } from 'node:cluster';
import { aggregateMetrics, createKernel, createLogger, isPostgresUrl, type Logger, type MetricsExposition, type MetricsSnapshot } from '@forgekit/kernel';
import { hostAndPort, reservePort, serverUrlOf } from './listen-on-port.js';
import { startServer, type StartedServer } from './server.js';
import { readServerConfig, type ServerConfigOptions } from './server-config.js';

/** The env variable that tells a worker its index (0 … N-1). */
const WORKER_INDEX = 'FORGEKIT_WORKER_INDEX';
/** How long the primary waits for each worker's metrics before answering with what it has. */
const SNAPSHOT_TIMEOUT_MS = 5_000;

type Message =
  | { type: 'forgekit:ready' }
  | { type: 'forgekit:metrics-request'; id: number }
  | { type: 'forgekit:metrics-response'; id: number; exposition: MetricsExposition }
  | { type: 'forgekit:snapshot-request'; id: number }
  | { type: 'forgekit:snapshot-response'; id: number; snapshot: MetricsSnapshot };

const isMessage = (value: unknown): value is Message =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { type?: unknown }).type === 'string' &&
  (value as { type: string }).type.startsWith('forgekit:');

export interface ClusterPrimary {
  /** Resolves once every worker serves. */
  readonly ready: Promise<void>;
  /** Stops every worker gracefully (logging the signal that asked); resolves with 0 when all of them exited cleanly, 1 otherwise. */
  stop(signal?: string): Promise<number>;
  /** Resolves when the cluster ended by itself (a worker failed to boot): the exit code. */
  readonly failed: Promise<number>;
}

/** Runs in the primary: check, migrate once, fork `count` workers, keep them running. */
export async function startPrimary(count: number, options: ServerConfigOptions = {}): Promise<ClusterPrimary> {
  const { plugins, input, config } = readServerConfig(options);
  const log: Logger = createLogger(config.logLevel);
  const port = await reservePort(config.port, config.host);
  const url = serverUrlOf(config.host, port);
  // Migrations, the secrets key, the plugins' start hooks and the job queues' tables, once,
  // before any worker opens the database: workers starting together would race to create them.
  const prepared = await createKernel({ plugins, config: input, logger: log, serverUrl: url, progress: (message) => log.info(message) });
  try {
    await prepared.start();
  } finally {
    await prepared.stop();
  }

  const workers = new Map<number, Worker>();
  const readyWorkers = new Set<number>();
  let stopping = false;
  let resolveReady!: () => void;
  let resolveFailed!: (code: number) => void;
  const ready = new Promise<void>((resolve) => (resolveReady = resolve));
  const failed = new Promise<number>((resolve) => (resolveFailed = resolve));

  // Metrics: a worker asks, the primary gathers every worker's snapshot and answers.
  let nextRequest = 0;
  const gathering = new Map<number, { snapshots: MetricsSnapshot[]; waiting: number; done: () => void }>();
  async function gatherMetrics(): Promise<MetricsExposition> {
    const id = ++nextRequest;
    const live = [...workers.values()].filter((worker) => worker.isConnected());
    const snapshots: MetricsSnapshot[] = [];
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, SNAPSHOT_TIMEOUT_MS);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      gathering.set(id, { snapshots, waiting: live.length, done });
      if (live.length === 0) done();
      for (const worker of live) worker.send({ type: 'forgekit:snapshot-request', id } satisfies Message);
    });
    gathering.delete(id);
    return aggregateMetrics(snapshots);
  }

  function onMessage(worker: Worker, index: number, message: unknown) {
    if (!isMessage(message)) return;
    if (message.type === 'forgekit:ready') {
      readyWorkers.add(index);
      log.info({ worker: index, pid: worker.process.pid }, 'worker ready');
      if (readyWorkers.size === count) {
        log.info(
          { url, host: config.host, port, pid: process.pid, workers: count, ...(config.externalUrl ? { external_url: config.externalUrl } : {}) },
          'listening',
        );
        resolveReady();
      }
    } else if (message.type === 'forgekit:snapshot-response') {
      const entry = gathering.get(message.id);
      if (!entry) return;
      entry.snapshots.push(message.snapshot);
      if (--entry.waiting === 0) entry.done();
    } else if (message.type === 'forgekit:metrics-request') {
      gatherMetrics().then(
        (exposition) => worker.isConnected() && worker.send({ type: 'forgekit:metrics-response', id: message.id, exposition } satisfies Message),
        (error) => log.error({ err: error }, 'metrics aggregation failed'),
      );
    }
  }

  function fork(index: number) {
    const worker = cluster.fork({ ...options.config?.env, PORT: String(port), [WORKER_INDEX]: String(index) });
    workers.set(index, worker);
    worker.on('message', (message) => onMessage(worker, index, message));
    worker.on('exit', (code, signal) => {
      if (workers.get(index) === worker) workers.delete(index);
      const wasReady = readyWorkers.delete(index);
      if (stopping) return;
      if (!wasReady) {
        // A worker that cannot boot would fail again: stop the cluster rather than loop.
        log.error({ worker: index, code, signal }, 'worker failed to start; stopping');
        void stopAll().then(() => resolveFailed(1));
        return;
      }
      log.error({ worker: index, code, signal }, 'worker exited; starting another');
      fork(index);
    });
  }

  let stopped: Promise<number> | undefined;
  function stopAll(signal?: string): Promise<number> {
    stopped ??= (async () => {
      stopping = true;
      if (signal) log.info({ signal }, 'shutting down');
      const exits = [...workers.values()].map(
        (worker) =>
          new Promise<boolean>((resolve) => {
            if (worker.isDead()) return resolve(worker.process.exitCode === 0);
            worker.once('exit', (code) => resolve(code === 0));
            worker.process.kill('SIGTERM');
          }),
      );
      const clean = (await Promise.all(exits)).every(Boolean);
      return clean ? 0 : 1;
    })();
    return stopped;
  }

  log.info(
    { workers: count, database: isPostgresUrl(config.databaseUrl) ? 'postgresql' : 'sqlite', address: hostAndPort(config.host, port) },
    'starting workers',
  );
  for (let index = 0; index < count; index++) fork(index);
  return { ready, failed, stop: stopAll };
}

/** Runs in a worker: a whole server on the cluster's port, its metrics answered for the cluster. */
export async function startWorker(options: ServerConfigOptions = {}): Promise<StartedServer> {
  const index = Number(process.env[WORKER_INDEX] ?? '0');
  const send = (message: Message) => process.connected && process.send?.(message);
  let server: StartedServer | undefined;
  let nextRequest = 0;
  const asked = new Map<number, (exposition: MetricsExposition) => void>();
  process.on('message', (message: unknown) => {
    if (!isMessage(message)) return;
    if (message.type === 'forgekit:snapshot-request') {
      const snapshot = server ? server.kernel.metrics.snapshot() : Promise.resolve([]);
      snapshot.then((taken) => send({ type: 'forgekit:snapshot-response', id: message.id, snapshot: taken }));
    } else if (message.type === 'forgekit:metrics-response') {
      asked.get(message.id)?.(message.exposition);
      asked.delete(message.id);
    }
  });
  const { config } = readServerConfig(options);
  server = await startServer({
    ...options,
    // Jobs queued in PostgreSQL run once whichever worker takes them; in-process schedules run in the first worker only.
    schedules: isPostgresUrl(config.databaseUrl) || index === 0,
    announce: false,
    logFields: { worker: index },
    metricsExposition: () =>
      new Promise((resolve) => {
        const id = ++nextRequest;
        asked.set(id, resolve);
        send({ type: 'forgekit:metrics-request', id });
      }),
  });
  send({ type: 'forgekit:ready' });
  return server;
}

export const isWorker = () => cluster.isWorker;
