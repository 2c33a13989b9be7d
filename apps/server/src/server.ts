import type { ServerResponse } from 'node:http';
import { createKernel, createLogger, type Kernel, type KernelOptions, type NodeListener } from '@forgekit/kernel';
import type { Listener } from 'listhen';
import { listenOnPort, serverUrlOf } from './listen-on-port.js';
import { readServerConfig, type ServerConfigOptions } from './server-config.js';

export interface StartedServer {
  kernel: Kernel;
  listener: Listener;
  /** A URL clients on this machine can use, without a trailing slash (`localhost` for a server on every interface). */
  url: string;
  /** Stops taking connections, finishes in-flight requests and jobs, closes the database. */
  close(): Promise<void>;
}

export interface StartServerOptions extends ServerConfigOptions {
  /** Run the config's job schedules in this process (default true; a cluster on SQLite runs them in one worker). */
  schedules?: boolean;
  /** Answers `/-/metrics` in place of this process's metrics (a cluster's workers ask the primary, which adds them up). */
  metricsExposition?: KernelOptions['metricsExposition'];
  /** Log the `listening` line (default true; a cluster's primary logs one for all its workers). */
  announce?: boolean;
  /** Fields every log line of this server carries (a cluster's workers add their index). */
  logFields?: Record<string, unknown>;
}

function unavailable(res: ServerResponse) {
  res.statusCode = 503;
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify({ message: '503 Service Unavailable' }));
}

/**
 * Reads and validates the config (env and `FORGEKIT_CONFIG`), binds exactly `HOST`:`PORT`,
 * and only then opens the database, migrates and boots the kernel: an invalid config or a
 * busy port fails before anything is written to the data dir. Requests that arrive while the
 * kernel boots wait for it. Rejects, with everything closed again, when any step fails.
 */
export async function startServer(options: StartServerOptions = {}): Promise<StartedServer> {
  const { plugins, input, config } = readServerConfig(options);
  const log = options.logFields ? createLogger(config.logLevel).child(options.logFields) : createLogger(config.logLevel);

  let target: NodeListener | undefined;
  let waiting: (() => void)[] = [];
  const handler: NodeListener = (req, res) => {
    if (target) return target(req, res);
    waiting.push(() => (target ? target(req, res) : unavailable(res)));
  };
  const release = () => {
    const queued = waiting;
    waiting = [];
    for (const answer of queued) answer();
  };

  const listener = await listenOnPort(handler, config.port, config.host);
  const url = serverUrlOf(config.host, listener.address.port);
  let kernel: Kernel | undefined;
  try {
    kernel = await createKernel({
      plugins,
      config: options.schedules === false ? { ...input, schedules: {} } : input,
      logger: log,
      serverUrl: url,
      progress: (message) => log.info(message),
      metricsExposition: options.metricsExposition,
    });
    await kernel.start();
  } catch (error) {
    release();
    await listener.close();
    await kernel?.stop();
    throw error;
  }
  target = kernel.nodeListener;
  release();
  if (options.announce !== false) {
    log.info(
      { url, host: config.host, port: listener.address.port, pid: process.pid, ...(config.externalUrl ? { external_url: config.externalUrl } : {}) },
      'listening',
    );
  }
  let closing: Promise<void> | undefined;
  const started = kernel;
  return {
    kernel: started,
    listener,
    url,
    close() {
      closing ??= (async () => {
        await listener.close();
        await started.stop();
      })();
      return closing;
    },
  };
}
