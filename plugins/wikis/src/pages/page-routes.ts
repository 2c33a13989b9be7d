/** The project wiki endpoints: pages by slug (URL-encoded, `/` as `%2F`) and attachments. */
import { created, defineRoute, f, noContent, params, rules, type Route } from '@forgekit/kernel';
import { WIKI_FORMATS } from './page-paths.js';
import { presentAttachment, presentBasic, presentPage } from './page-presenter.js';
import { attachmentSchema, pageListSchema, pageSchema } from './page-schemas.js';
import type { PageService } from './page-service.js';
import type { WikiAccess } from './wiki-access.js';

const format = () => f.values(WIKI_FORMATS);

export function pageRoutes(service: PageService, wikiAccess: WikiAccess): Route[] {
  const collection = '/projects/:id/wikis';
  const item = `${collection}/:slug`;
  return [
    defineRoute({
      method: 'GET',
      path: collection,
      auth: 'optional',
      input: params({ with_content: f.optional(f.boolean(), false) }),
      response: { schema: pageListSchema },
      async handler(ctx, input) {
        const { project } = await wikiAccess(ctx.user, ctx.params.id, 'read');
        if (input.with_content) return service.listWithContentJson(project, (pages) => pages.map((page) => presentPage(page, page.content)));
        return (await service.listBasic(project)).map(({ page, metaId }) => presentBasic(page, metaId));
      },
    }),
    defineRoute({
      method: 'GET',
      path: item,
      auth: 'optional',
      input: params({ render_html: f.optional(f.boolean(), false), version: f.optional(f.string()) }),
      response: { schema: pageSchema },
      async handler(ctx, input) {
        const { project } = await wikiAccess(ctx.user, ctx.params.id, 'read');
        const page = await service.find(project, ctx.params.slug, input.version);
        return presentPage(page, input.render_html ? await service.rendered(page) : page.content);
      },
    }),
    defineRoute({
      method: 'POST',
      path: collection,
      input: params({ title: f.string(), content: f.string(), format: f.optional(format(), 'markdown') }),
      response: { schema: pageSchema },
      async handler(ctx, input) {
        const { project } = await wikiAccess(ctx.user, ctx.params.id, 'create');
        const page = await service.create(project, ctx.user, { ...input, format: input.format ?? 'markdown' });
        return created(presentPage(page, page.content));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: item,
      input: params(
        { title: f.optional(f.string()), content: f.optional(f.string()), format: f.optional(format()) },
        rules.atLeastOneOf('content', 'title', 'format'),
      ),
      response: { schema: pageSchema },
      async handler(ctx, input) {
        const { project } = await wikiAccess(ctx.user, ctx.params.id, 'create');
        const page = await service.update(project, ctx.user, ctx.params.slug, input);
        return presentPage(page, page.content);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: item,
      // A removal the repository refuses answers 422.
      response: { status: 204, errors: [422] },
      async handler(ctx) {
        const { project } = await wikiAccess(ctx.user, ctx.params.id, 'admin');
        await service.remove(project, ctx.user, ctx.params.slug);
        return noContent();
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${collection}/attachments`,
      uploads: true,
      input: params({ file: f.file(), branch: f.optional(f.string()) }),
      response: { schema: attachmentSchema },
      async handler(ctx, input) {
        const { project } = await wikiAccess(ctx.user, ctx.params.id, 'create');
        return created(presentAttachment(await service.attach(project, ctx.user, input.file, input.branch)));
      },
    }),
  ];
}
