import { kernelServices, definePlugin } from '@forgekit/kernel';
import { AccessLevel, coreAccessRef, coreEvents, coreGroupsRef, coreProjectsRef } from '@forgekit/plugin-core/contracts';
import { pagesDomainsRef } from '@forgekit/plugin-pages-domains/contracts';
import { repositoryReadRef } from '@forgekit/plugin-repositories/contracts';
import * as v from 'valibot';
import { placeholderValuesOf } from './badges/badge-renderer.js';
import { badgeRoutes } from './badges/badge-routes.js';
import { createBadgeService } from './badges/badge-service.js';
import { createBadgeStore } from './badges/badge-store.js';
import { BadgeEntity } from './entities/badge.js';
import { init } from './migrations/202611271000-init.js';
import { firstVisibleProjectOf, groupOfAccess, projectOfAccess } from './shared/core-fields.js';

/** A host name, with a port if any: what GitLab's `pages.host` holds. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export const BadgesConfigSchema = v.object({
  /**
   * The host GitLab Pages sites are served under (GitLab's `pages.host`), which
   * `%{service_pages_domain}` renders to. Unset, that placeholder is left as written. When the
   * host composes the pages-domains plugin, its `pages_host` application setting is used instead.
   */
  pagesHost: v.optional(v.pipe(v.string(), v.regex(HOST, 'pagesHost must be a host name, such as pages.example.com'))),
});

export type BadgesConfig = v.InferOutput<typeof BadgesConfigSchema>;

/** Project and group badges, with their URL placeholders rendered from the project and its repository. */
export const badgesPlugin = definePlugin<BadgesConfig>({
  id: 'badges',
  compatibility: '^0.1.0',
  config: BadgesConfigSchema,
  env: { FORGEKIT_PAGES_HOST: 'pagesHost' },
  entities: [BadgeEntity],
  migrations: [init],
  requires: [coreAccessRef, coreGroupsRef, coreProjectsRef],
  optional: [repositoryReadRef, pagesDomainsRef],
  register(ctx) {
    const database = ctx.resolve(kernelServices.database);
    const access = ctx.resolve(coreAccessRef);
    const projects = ctx.resolve(coreProjectsRef);
    const service = createBadgeService(createBadgeStore(database));
    const pages = ctx.resolveOptional(pagesDomainsRef);
    const renderer = {
      groups: ctx.resolve(coreGroupsRef),
      repos: ctx.resolveOptional(repositoryReadRef),
      pagesHost: async () => (pages ? (await pages.settings()).host : (ctx.config.pagesHost ?? null)),
    };

    ctx.routes(
      ...badgeRoutes(service, {
        kind: 'project',
        path: '/projects/:id/badges',
        async source(req, admin) {
          const project = projectOfAccess(await access.requireProject(req.user, req.params.id!, admin ? AccessLevel.MAINTAINER : 0));
          return {
            kind: 'project',
            id: project.id,
            scope: { kind: 'project', projectId: project.id, groupIds: project.groupIds },
            values: async () => placeholderValuesOf(renderer, project, req.externalUrl),
          };
        },
      }),
      ...badgeRoutes(service, {
        kind: 'group',
        path: '/groups/:id/badges',
        async source(req, admin) {
          const group = groupOfAccess(await access.requireGroup(req.user, req.params.id!, admin ? AccessLevel.OWNER : 0));
          return {
            kind: 'group',
            id: group.id,
            scope: { kind: 'group', groupId: group.id },
            // Rendered with the group's first project the caller can see; with none, the URLs stay as written.
            async values() {
              const project = await firstVisibleProjectOf(access, projects, req.user, group);
              return project ? placeholderValuesOf(renderer, project, req.externalUrl) : null;
            },
          };
        },
      }),
    );

    ctx.events.on(coreEvents.projectDeleted, async ({ projectId }) => {
      await service.removeAllOf('project', projectId);
    });
    ctx.events.on(coreEvents.groupDeleted, async ({ groupId }) => {
      await service.removeAllOf('group', groupId);
    });
  },
});
