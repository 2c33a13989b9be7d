/** `GET /pages/domains` (administrators) and `/projects/:id/pages/domains[/:domain[/verify]]`. */
import { readFile } from 'node:fs/promises';
import { created, defineRoute, f, noContent, page, params, recordNotFound, rules, totalFor, type Route, type UploadedFile } from '@forgekit/kernel';
import { AccessLevel, type AccessService } from '@forgekit/plugin-core/contracts';
import type { PagesSettingsReader } from '../settings/pages-settings.js';
import { presentDomain, presentDomainBasic } from './domain-presenter.js';
import { domainBasicSchema, domainSchema } from './domain-schemas.js';
import type { DomainService } from './domain-service.js';

/** A multipart part's contents, or the string sent. */
const textOf = async (value: UploadedFile | string | null | undefined) =>
  value === undefined || value === null || typeof value === 'string' ? value : readFile(value.path, 'utf8');

export function domainRoutes(service: DomainService, access: AccessService, settings: PagesSettingsReader): Route[] {
  const requirePagesEnabled = async () => {
    if (!(await settings.pages()).enabled) throw recordNotFound();
  };
  /** The project with Pages enabled and the caller at `level`: read and write both take Maintainer. */
  const projectOf = async (user: Parameters<AccessService['requireProject']>[0], id: string) => {
    const { project } = await access.requireProject(user, id, AccessLevel.MAINTAINER);
    await requirePagesEnabled();
    return project;
  };
  const certificateFields = {
    auto_ssl_enabled: f.optional(f.boolean()),
    certificate: f.optional(f.fileOrString()),
    key: f.optional(f.fileOrString()),
  };
  const inputOf = async (input: { auto_ssl_enabled?: boolean | null; certificate?: UploadedFile | string | null; key?: UploadedFile | string | null }) => ({
    autoSslEnabled: input.auto_ssl_enabled,
    certificate: await textOf(input.certificate),
    key: await textOf(input.key),
  });
  const domainPath = '/projects/:id/pages/domains/:domain';

  return [
    defineRoute({
      method: 'GET',
      path: '/pages/domains',
      auth: 'admin',
      paginated: true,
      input: params({ domain: f.optional(f.string()) }),
      response: { schema: domainBasicSchema },
      async handler(ctx, input) {
        await requirePagesEnabled();
        if (input.domain) {
          const row = await service.findAnywhere(input.domain);
          return page([presentDomainBasic(row)], 1);
        }
        const rows = await service.listAll(ctx.page.perPage, ctx.page.offset);
        return page(rows.map(presentDomainBasic), await totalFor(ctx.page, rows.length, () => service.countAll()));
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/pages/domains',
      paginated: true,
      response: { schema: domainSchema },
      before: (ctx) => projectOf(ctx.user, ctx.params.id),
      async handler(ctx, _input, project) {
        const rows = await service.list(project.id, ctx.page.perPage, ctx.page.offset);
        return page(rows.map(presentDomain), await totalFor(ctx.page, rows.length, () => service.count(project.id)));
      },
    }),
    defineRoute({
      method: 'GET',
      path: domainPath,
      response: { schema: domainSchema },
      before: (ctx) => projectOf(ctx.user, ctx.params.id),
      handler: async (ctx, _input, project) => presentDomain(await service.find(project.id, ctx.params.domain)),
    }),
    defineRoute({
      method: 'POST',
      path: '/projects/:id/pages/domains',
      uploads: true,
      input: params({ domain: f.string(), ...certificateFields }, rules.allOrNoneOf('certificate', 'key')),
      response: { schema: domainSchema },
      before: (ctx) => projectOf(ctx.user, ctx.params.id),
      handler: async (_ctx, input, project) => created(presentDomain(await service.create(project.id, input.domain, await inputOf(input)))),
    }),
    defineRoute({
      method: 'PUT',
      path: domainPath,
      uploads: true,
      input: params(certificateFields),
      response: { schema: domainSchema },
      before: (ctx) => projectOf(ctx.user, ctx.params.id),
      async handler(ctx, input, project) {
        const row = await service.find(project.id, ctx.params.domain);
        return presentDomain(await service.update(row, await inputOf(input)));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: `${domainPath}/verify`,
      // A domain whose DNS record does not hold its code is refused with 400.
      response: { schema: domainSchema, errors: [400] },
      before: (ctx) => projectOf(ctx.user, ctx.params.id),
      async handler(ctx, _input, project) {
        const result = await service.verify(await service.find(project.id, ctx.params.domain));
        if (!result.ok) throw service.failed(result.message);
        return presentDomain(result.domain);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: domainPath,
      response: { status: 204 },
      before: (ctx) => projectOf(ctx.user, ctx.params.id),
      async handler(ctx, _input, project) {
        await service.remove(await service.find(project.id, ctx.params.domain));
        return noContent();
      },
    }),
  ];
}
