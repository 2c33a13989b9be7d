import { createServer, type Server } from 'node:http';
import { createKernel, loadConfig, type Kernel } from '@forgekit/kernel';
import { ciVariablesPlugin } from '@forgekit/plugin-ci-variables';
import { corePlugin } from '@forgekit/plugin-core';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { createApp, fromNodeMiddleware, toNodeListener } from 'h3';

/** The plugins this host serves: CI/CD variables, which need core and plan-limits. */
export const plugins = [corePlugin, planLimitsPlugin, ciVariablesPlugin];

/** The kernel, serving the GitLab API under /forge (`/forge/api/v4/...`). */
export async function createForge(): Promise<Kernel> {
  const kernel = await createKernel({ plugins, config: loadConfig({ plugins }), basePath: '/forge' });
  await kernel.start();
  return kernel;
}

/** An existing node:http app that hands /forge and everything below it to the kernel. */
export function nodeHost(kernel: Kernel): Server {
  return createServer((req, res) => {
    if (req.url === '/forge' || req.url?.startsWith('/forge/')) return kernel.nodeListener(req, res);
    res.end('the host app');
  });
}

/**
 * An existing h3 app: `app.use('/forge', …)` strips the prefix from req.url, so put it back.
 * A middleware with three parameters makes h3 wait until the kernel has answered.
 */
export function h3Host(kernel: Kernel): Server {
  const app = createApp();
  app.use(
    '/forge',
    fromNodeMiddleware((req, res, _next) => {
      req.url = (req as { originalUrl?: string }).originalUrl ?? req.url;
      kernel.nodeListener(req, res);
    }),
  );
  app.use('/', () => 'the host app');
  return createServer(toNodeListener(app));
}
