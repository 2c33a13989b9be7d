/** The five variable endpoints, mounted once per owner kind. */
import { created, defineRoute, JsonText, keptPages, noContent, page, totalFor, type AuthMode, type RequestContext, type Route } from '@forgekit/kernel';
import { KIND_RULES, type Owner, type OwnerKind } from './owner-kinds.js';
import { createParamsFor, lookupParamsFor, updateParamsFor } from './variable-params.js';
import { presentVariable } from './variable-presenter.js';
import { variableSchemaFor } from './variable-schemas.js';
import type { VariableService } from './variable-service.js';

export interface VariableMount {
  kind: OwnerKind;
  /** The collection path, e.g. `/projects/:id/variables`. */
  path: string;
  auth: AuthMode;
  /** Resolves the owner and checks the caller may manage its variables (404/403), before params are validated. */
  owner(ctx: RequestContext): Promise<Owner>;
}

export function variableRoutes(service: VariableService, mount: VariableMount): Route[] {
  const { kind, path, auth } = mount;
  const itemPath = `${path}/:key`;
  const present = (variable: Parameters<typeof presentVariable>[1]) => presentVariable(kind, variable);
  const schema = variableSchemaFor(kind);
  // 409: several environment scopes share the key and no filter picks one.
  const ambiguous = KIND_RULES[kind].scoped ? [409] : [];
  /** Pages by owner and page (the caller allowed by `owner` first): a page shows nothing of its caller. */
  const pages = keptPages<{ items: readonly JsonText[]; total: number | null }>();

  return [
    defineRoute({
      method: 'GET',
      path,
      auth,
      paginated: true,
      response: { schema },
      before: mount.owner,
      async handler(ctx, _input, owner) {
        const { perPage, offset } = ctx.page;
        const { items, total } = await pages(`${owner.kind}:${owner.id}|${perPage}|${offset}`, ctx.user, async () => {
          const variables = await service.list(owner, perPage, offset);
          const texts = variables.map((variable) => new JsonText(JSON.stringify(present(variable))));
          return { items: texts, total: await totalFor(ctx.page, variables.length, () => service.count(owner)) };
        });
        return page(items, total);
      },
    }),
    defineRoute({
      method: 'GET',
      path: itemPath,
      auth,
      response: { schema, errors: ambiguous },
      before: mount.owner,
      input: lookupParamsFor(kind),
      async handler(ctx, { filter }, owner) {
        return present(await service.find(owner, ctx.params.key, filter?.environment_scope));
      },
    }),
    defineRoute({
      method: 'POST',
      path,
      auth,
      // 409: a concurrent write got in the way, and the caller may retry.
      response: { schema, errors: [409] },
      before: mount.owner,
      input: createParamsFor(kind),
      async handler(_ctx, input, owner) {
        return created(present(await service.create(owner, input)));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: itemPath,
      auth,
      response: { schema, errors: [409] },
      before: mount.owner,
      input: updateParamsFor(kind),
      async handler(ctx, input, owner) {
        const scope = input.filter?.environment_scope;
        const pickFirst = KIND_RULES[kind].updatePicksFirst && input.filter === undefined;
        const variable = await service.find(owner, ctx.params.key, scope, { pickFirst });
        return present(await service.update(owner, variable, input));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: itemPath,
      auth,
      response: { status: 204, errors: [...ambiguous, ...(KIND_RULES[kind].conditionalDelete ? [412] : [])] },
      before: mount.owner,
      input: lookupParamsFor(kind),
      async handler(ctx, { filter }, owner) {
        const variable = await service.find(owner, ctx.params.key, filter?.environment_scope);
        await service.remove(owner, variable, ctx.header('If-Unmodified-Since'));
        return noContent();
      },
    }),
  ];
}
