import { createKernel, loadConfig, type ForgePlugin, type Kernel, type LoadConfigOptions } from '@forgekit/kernel';
import { listen, type Listener } from 'listhen';
import { allPlugins, defaultSchedules } from './plugins.js';

export interface StartedServer {
  kernel: Kernel;
  listener: Listener;
  url: string;
  /** Stops taking connections, finishes in-flight requests and jobs, closes the database. */
  close(): Promise<void>;
}

/** Reads config from env (and `FORGEKIT_CONFIG`), boots the kernel and listens on `PORT`. */
export async function startServer(options: { plugins?: readonly ForgePlugin<any>[]; config?: LoadConfigOptions; showURL?: boolean } = {}): Promise<StartedServer> {
  const plugins = options.plugins ?? allPlugins;
  const config = loadConfig({ ...options.config, plugins });
  const kernel = await createKernel({ plugins, config: { schedules: plugins === allPlugins ? defaultSchedules : {}, ...config } });
  await kernel.start();
  const listener = await listen(kernel.nodeListener, {
    port: kernel.config.port,
    hostname: kernel.config.host,
    showURL: options.showURL ?? true,
    qr: false,
    public: kernel.config.host !== 'localhost' && kernel.config.host !== '127.0.0.1',
    name: 'forgekit',
  });
  let closing: Promise<void> | undefined;
  return {
    kernel,
    listener,
    url: listener.url,
    close() {
      closing ??= (async () => {
        await listener.close();
        await kernel.stop();
      })();
      return closing;
    },
  };
}
