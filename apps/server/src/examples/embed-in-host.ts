import { createServer, type Server } from 'node:http';
import { createKernel, loadConfig, type Kernel } from '@forgekit/kernel';
import { corePlugin } from '@forgekit/plugin-core';

/** A host app that serves only the plugins it chose, on its own HTTP server. */
export async function startHost(port = 8080): Promise<{ kernel: Kernel; server: Server }> {
  const plugins = [corePlugin];
  const kernel = await createKernel({ plugins, config: loadConfig({ plugins }) });
  await kernel.start();
  const server = createServer(kernel.nodeListener).listen(port);
  return { kernel, server };
}
