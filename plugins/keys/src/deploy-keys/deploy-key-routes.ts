/**
 * `/projects/:id/deploy_keys` (Maintainers: list, get, add, update, enable, disable) and the
 * instance's `/deploy_keys` (administrators: list, add a public key).
 */
import { created, defineRoute, f, noContent, page, params, rules, totalFor, type RequestContext, type Route } from '@forgekit/kernel';
import { AccessLevel, ARCHIVED_PROJECT_GUARD, type AccessService, type ProjectService } from '@forgekit/plugin-core/contracts';
import { projectIdentityBody, projectIdOf, type CoreProject } from '../shared/core-fields.js';
import { deployKeyBody, deployKeysProjectBody } from '../shared/key-presenter.js';
import { deployKeySchema, deployKeysProjectSchema, instanceDeployKeySchema } from '../shared/key-schemas.js';
import type { DeployKeyService } from './deploy-key-service.js';
import type { ProjectDeployKey } from './deploy-key-store.js';

const present = (found: ProjectDeployKey) => deployKeysProjectBody(found.key, found);

export function deployKeyRoutes(service: DeployKeyService, access: AccessService, projects: ProjectService): Route[] {
  // GitLab's `admin_project`: Maintainers and up. It holds on archived projects too.
  const maintained = async (ctx: RequestContext) => projectIdOf((await access.requireProject(ctx.user, ctx.params.id!, AccessLevel.MAINTAINER)).project);
  const path = '/projects/:id/deploy_keys';
  const writes = { exemptFrom: [ARCHIVED_PROJECT_GUARD] };

  return [
    defineRoute({
      method: 'GET',
      path,
      paginated: true,
      response: { schema: deployKeysProjectSchema },
      before: maintained,
      async handler(ctx, _input, projectId) {
        const { perPage, offset } = ctx.page;
        const keys = await service.list(projectId, perPage, offset);
        return page(keys.map(present), await totalFor(ctx.page, keys.length, () => service.count(projectId)));
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${path}/:key_id`,
      before: maintained,
      input: params({ key_id: f.id() }),
      response: { schema: deployKeysProjectSchema },
      handler: async (_ctx, input, projectId) => present(await service.find(projectId, input.key_id)),
    }),
    defineRoute({
      method: 'POST',
      path,
      ...writes,
      before: maintained,
      input: params({ key: f.string(), title: f.string(), can_push: f.optional(f.boolean()), expires_at: f.optional(f.datetime()) }),
      response: { schema: deployKeysProjectSchema, errors: [409] },
      async handler(ctx, input, projectId) {
        const found = await service.create(ctx.user!, projectId, {
          key: input.key,
          title: input.title,
          canPush: !!input.can_push,
          expiresAt: input.expires_at ?? null,
        });
        return created(present(found));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: `${path}/:key_id`,
      ...writes,
      before: maintained,
      input: params({ key_id: f.id(), title: f.optional(f.string()), can_push: f.optional(f.boolean()) }, rules.atLeastOneOf('title', 'can_push')),
      response: { schema: deployKeysProjectSchema },
      async handler(ctx, input, projectId) {
        const found = await service.find(projectId, input.key_id);
        return present(await service.update(ctx.user!, found, { title: input.title, canPush: input.can_push }));
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${path}/:key_id/enable`,
      ...writes,
      before: maintained,
      input: params({ key_id: f.id() }),
      response: { schema: deployKeySchema },
      handler: async (ctx, input, projectId) => created(deployKeyBody(await service.enable(ctx.user!, projectId, input.key_id))),
    }),
    defineRoute({
      method: 'DELETE',
      path: `${path}/:key_id`,
      ...writes,
      before: maintained,
      input: params({ key_id: f.id() }),
      response: { status: 204, errors: [412] },
      async handler(ctx, input, projectId) {
        await service.remove(projectId, input.key_id, ctx.header('If-Unmodified-Since'));
        return noContent();
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/deploy_keys',
      auth: 'admin',
      paginated: true,
      input: params({ public: f.optional(f.boolean(), false) }),
      response: { schema: instanceDeployKeySchema },
      async handler(ctx, input) {
        const { perPage, offset } = ctx.page;
        const publicOnly = !!input.public;
        const list = await service.instanceList(publicOnly, perPage, offset);
        const projectIds = [...new Set(list.flatMap(({ links }) => links.map((link) => link.projectId)))];
        const known = new Map<number, CoreProject>();
        for (const id of projectIds) {
          const project = await projects.findById(id);
          if (project) known.set(id, project);
        }
        const identities = (links: (typeof list)[number]['links'], canPush: boolean) =>
          links.filter((link) => link.canPush === canPush && known.has(link.projectId)).map((link) => projectIdentityBody(known.get(link.projectId)!));
        const bodies = list.map(({ key, links }) => ({
          ...deployKeyBody(key),
          projects_with_write_access: identities(links, true),
          projects_with_readonly_access: identities(links, false),
        }));
        return page(bodies, await totalFor(ctx.page, list.length, () => service.countInstance(publicOnly)));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/deploy_keys',
      auth: 'admin',
      input: params({ key: f.string(), title: f.string(), expires_at: f.optional(f.datetime()) }),
      response: { schema: deployKeySchema, errors: [409] },
      async handler(ctx, input) {
        const key = await service.createPublic(ctx.user!, { key: input.key, title: input.title, expiresAt: input.expires_at ?? null });
        return created(deployKeyBody(key));
      },
    }),
  ];
}
