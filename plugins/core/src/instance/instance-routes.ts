import { defineRoute, notFound, raw, reply, type RequestContext, type Route } from '@forgekit/kernel';
import type { Knex } from '@forgekit/kernel/orm';

/** Health checks answer only local callers, as GitLab's IP allow-list does by default. */
const isLocal = (ctx: RequestContext) => ctx.ip === '' || ctx.ip === '127.0.0.1' || ctx.ip === '::1' || ctx.ip === '::ffff:127.0.0.1';

export function instanceRoutes(db: Knex, version: string, revision: string): Route[] {
  const metadata = () => ({
    version,
    revision,
    kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
    enterprise: false,
  });
  const localOnly = (ctx: RequestContext) => {
    if (!isLocal(ctx)) throw notFound();
  };
  return [
    defineRoute({ method: 'GET', path: '/version', scopes: ['read_user'], handler: metadata }),
    defineRoute({ method: 'GET', path: '/metadata', scopes: ['read_user'], handler: metadata }),
    defineRoute({
      method: 'GET',
      path: '/-/health',
      raw: true,
      auth: 'none',
      handler: (ctx) => {
        localOnly(ctx);
        return raw(200, 'Service OK', 'text/plain');
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/-/liveness',
      raw: true,
      auth: 'none',
      handler: (ctx) => {
        localOnly(ctx);
        return { status: 'ok' };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/-/readiness',
      raw: true,
      auth: 'none',
      async handler(ctx) {
        localOnly(ctx);
        try {
          await db.raw('select 1');
          return { status: 'ok', master_check: [{ status: 'ok' }], db_check: [{ status: 'ok' }] };
        } catch (error) {
          return reply(503, { status: 'failed', master_check: [{ status: 'failed' }], db_check: [{ status: 'failed', message: String(error) }] });
        }
      },
    }),
  ];
}
