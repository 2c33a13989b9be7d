import { defineRoute, f, isLocalCaller, notFound, params, raw, reply, type Database, type RequestContext, type Route } from '@forgekit/kernel';
import { ApplicationSettingEntity } from '../entities/application-setting.js';
import { livenessSchema, metadataSchema, readinessSchema } from './instance-schemas.js';

export function instanceRoutes(database: Database, version: string, revision: string): Route[] {
  const metadata = () => ({
    version,
    revision,
    kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
    enterprise: false,
  });
  const localOnly = (ctx: RequestContext) => {
    // Health checks answer only local callers, as GitLab's IP allow-list does by default.
    if (!isLocalCaller(ctx.ip)) throw notFound();
  };
  return [
    defineRoute({ method: 'GET', path: '/version', scopes: ['read_user'], response: { schema: metadataSchema }, handler: metadata }),
    defineRoute({ method: 'GET', path: '/metadata', scopes: ['read_user'], response: { schema: metadataSchema }, handler: metadata }),
    defineRoute({
      method: 'GET',
      path: '/-/health',
      raw: true,
      auth: 'none',
      response: { schema: { const: 'Service OK' }, contentType: 'text/plain' },
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
      response: { schema: livenessSchema },
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
      // 503, with the same body, when the database does not answer.
      response: { schema: readinessSchema, alternatives: { 503: readinessSchema } },
      input: params({ all: f.optional(f.string()) }),
      async handler(ctx, input) {
        localOnly(ctx);
        // The database is checked on every call; `?all=1` also reports it.
        const check = await database.count(database.table(ApplicationSettingEntity)).then(
          () => ({ status: 'ok' }),
          (error) => ({ status: 'failed', message: String(error) }),
        );
        const ok = check.status === 'ok';
        const body: Record<string, unknown> = { status: ok ? 'ok' : 'failed', master_check: [{ status: ok ? 'ok' : 'failed' }] };
        if (input.all) body.db_check = [check];
        return ok ? body : reply(503, body);
      },
    }),
  ];
}
