import { createKernel, loadConfig, type ForgePlugin, type Kernel, type LoadConfigOptions } from '@forgekit/kernel';
import type { Listener } from 'listhen';
import { listenOnPort } from './listen-on-port.js';
import { allPlugins, defaultSchedules } from './plugins.js';

export interface StartedServer {
  kernel: Kernel;
  listener: Listener;
  /** Where the server listens, without a trailing slash (the bound port when `PORT` is 0). */
  url: string;
  /** Stops taking connections, finishes in-flight requests and jobs, closes the database. */
  close(): Promise<void>;
}

/**
 * Reads config from env (and `FORGEKIT_CONFIG`), boots the kernel and listens on exactly
 * `HOST`:`PORT`; rejects, with the kernel stopped, when that port cannot be bound.
 */
export async function startServer(options: { plugins?: readonly ForgePlugin<any>[]; config?: LoadConfigOptions } = {}): Promise<StartedServer> {
  const plugins = options.plugins ?? allPlugins;
  const config = loadConfig({ ...options.config, plugins });
  const kernel = await createKernel({ plugins, config: { schedules: plugins === allPlugins ? defaultSchedules : {}, ...config } });
  let listener: Listener;
  try {
    await kernel.start();
    listener = await listenOnPort(kernel.nodeListener, kernel.config.port, kernel.config.host);
  } catch (error) {
    await kernel.stop();
    throw error;
  }
  const url = listener.url.replace(/\/+$/, '');
  kernel.log.info({ url, host: kernel.config.host, port: listener.address.port }, 'listening');
  let closing: Promise<void> | undefined;
  return {
    kernel,
    listener,
    url,
    close() {
      closing ??= (async () => {
        await listener.close();
        await kernel.stop();
      })();
      return closing;
    },
  };
}
