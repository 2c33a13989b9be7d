/** Hook CRUD with per-key URL variables and custom headers, for group and project hooks alike. */
import { checkUnmodifiedSince, created, defineRoute, f, noContent, page, params, totalFor, type Route } from '@forgekit/kernel';
import { ARCHIVED_PROJECT_GUARD } from '@forgekit/plugin-core/contracts';
import type { HookMount } from './hook-mount.js';
import { createHookParams, updateHookParams } from './hook-params.js';
import { presentHook } from './hook-presenter.js';
import { hookSchemas } from './hook-schemas.js';
import type { HookService } from './hook-service.js';

export function hookRoutes(service: HookService, mount: HookMount, autoDisabling: () => Promise<boolean>): Route[] {
  const { path } = mount;
  const item = `${path}/:hook_id`;
  // Hooks are a project's settings: GitLab lets Maintainers change them on an archived project.
  const exemptFrom = mount.kind === 'project' ? [ARCHIVED_PROJECT_GUARD] : [];
  const before = (ctx: Parameters<HookMount['owner']>[0]) => mount.owner(ctx);
  const schema = hookSchemas[mount.kind];
  const keyRoutes = (segment: 'url_variables' | 'custom_headers') => [
    defineRoute({
      method: 'PUT',
      path: `${item}/${segment}/:key`,
      exemptFrom,
      input: params({ hook_id: f.id(), key: f.string(), value: f.string() }),
      response: { status: 204, errors: [422] },
      before,
      async handler(_ctx, { hook_id, key, value }, owner) {
        const hook = await service.find(owner, hook_id);
        if (segment === 'url_variables') await service.setVariable(hook, key, value);
        else await service.setHeader(hook, key, value);
        return noContent();
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${item}/${segment}/:key`,
      exemptFrom,
      input: params({ hook_id: f.id(), key: f.string() }),
      // Unsetting a URL variable the URL still uses is refused.
      response: segment === 'url_variables' ? { status: 204, errors: [422] } : { status: 204 },
      before,
      async handler(_ctx, { hook_id, key }, owner) {
        const hook = await service.find(owner, hook_id);
        if (segment === 'url_variables') await service.unsetVariable(hook, key);
        else await service.unsetHeader(hook, key);
        return noContent();
      },
    }),
  ];

  return [
    defineRoute({
      method: 'GET',
      path,
      paginated: true,
      response: { schema },
      before,
      async handler(ctx, _input, owner) {
        const hooks = await service.list(owner, ctx.page.perPage, ctx.page.offset);
        const shown = await autoDisabling();
        return page(
          hooks.map((hook) => presentHook(hook, shown)),
          await totalFor(ctx.page, hooks.length, () => service.count(owner)),
        );
      },
    }),
    defineRoute({
      method: 'GET',
      path: item,
      input: params({ hook_id: f.id() }),
      response: { schema },
      before,
      handler: async (_ctx, { hook_id }, owner) => presentHook(await service.find(owner, hook_id), await autoDisabling()),
    }),
    defineRoute({
      method: 'POST',
      path,
      exemptFrom,
      input: createHookParams,
      response: { schema, errors: [422] },
      before,
      handler: async (_ctx, input, owner) => created(presentHook(await service.create(owner, input), await autoDisabling())),
    }),
    defineRoute({
      method: 'PUT',
      path: item,
      exemptFrom,
      input: updateHookParams,
      response: { schema, errors: [422] },
      before,
      async handler(_ctx, { hook_id, ...input }, owner) {
        const hook = await service.find(owner, hook_id);
        return presentHook(await service.update(hook, input), await autoDisabling());
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: item,
      exemptFrom,
      input: params({ hook_id: f.id() }),
      response: { status: 204, errors: [412] },
      before,
      async handler(ctx, { hook_id }, owner) {
        const hook = await service.find(owner, hook_id);
        checkUnmodifiedSince(ctx.header('If-Unmodified-Since'), hook.updatedAt);
        await service.remove(hook);
        return noContent();
      },
    }),
    ...keyRoutes('url_variables'),
    ...keyRoutes('custom_headers'),
  ];
}
