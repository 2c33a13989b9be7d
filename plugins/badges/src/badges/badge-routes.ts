/**
 * The badge endpoints, mounted once per source kind (`/projects/:id/badges`,
 * `/groups/:id/badges`). As in GitLab, params are validated before the source is looked up
 * (the lookup is in the endpoint): reads are open to whoever sees the source, anonymous
 * callers included; writes and `render` need the source's administrators (Maintainers of a
 * project, Owners of a group).
 */
import {
  created,
  defineRoute,
  f,
  frameworkError,
  keptUnderMark,
  noContent,
  page,
  PAGES_KEPT,
  params,
  requestMark,
  totalFor,
  unauthorized,
  type RequestContext,
  type Route,
} from '@forgekit/kernel';
import { ARCHIVED_PROJECT_GUARD } from '@forgekit/plugin-core/contracts';
import type { BadgeKind } from '../entities/badge.js';
import { presentBadge, presentPreview, renderAll, renderBoth } from './badge-presenter.js';
import { badgePreviewSchema, badgeSchema } from './badge-schemas.js';
import type { BadgeService } from './badge-service.js';
import type { BadgeScope } from './badge-store.js';
import { hasPlaceholders, type PlaceholderValues } from './placeholders.js';

/** A project or group as badge routes see it. */
export interface BadgeSource {
  kind: BadgeKind;
  id: number;
  /** The badges shown for it: a project's own and its groups', or the group's. */
  scope: BadgeScope;
  /** Placeholder values, or null when there is no project to read them from (an empty group). */
  values(): Promise<PlaceholderValues | null>;
}

export interface BadgeMount {
  kind: BadgeKind;
  /** The collection path, e.g. `/projects/:id/badges`. */
  path: string;
  /** The source the caller can see (404 otherwise); with `admin`, one the caller administers (403 otherwise). */
  source(ctx: RequestContext, admin: boolean): Promise<BadgeSource>;
}

const urls = {
  link_url: f.string(),
  image_url: f.string(),
};

export function badgeRoutes(service: BadgeService, mount: BadgeMount): Route[] {
  const { kind, path } = mount;
  const itemPath = `${path}/:badge_id`;
  // A project's badges are its settings: GitLab lets Maintainers change them on an archived project.
  const exemptFrom = kind === 'project' ? [ARCHIVED_PROJECT_GUARD] : [];

  /**
   * A page's badges and total by source, name filter and page, kept between reading requests
   * under their change mark; they are rendered on each request, since placeholders read git.
   * What is kept is only read from.
   */
  const keptBadgePages = keptUnderMark<{ badges: Awaited<ReturnType<BadgeService['list']>>; total: number }>(PAGES_KEPT);

  /** Placeholder values only when some URL names a placeholder: a group then looks up its first project. */
  async function valuesFor(source: BadgeSource, shown: readonly { linkUrl: string; imageUrl: string }[]) {
    return shown.some((badge) => hasPlaceholders(badge.linkUrl) || hasPlaceholders(badge.imageUrl)) ? source.values() : null;
  }

  return [
    defineRoute({
      method: 'GET',
      path,
      auth: 'optional',
      paginated: true,
      response: { schema: badgeSchema },
      input: params({ name: f.optional(f.string()) }),
      async handler(ctx, { name }) {
        const source = await mount.source(ctx, false);
        const { perPage, offset } = ctx.page;
        const { badges, total } = await keptBadgePages(`${source.kind}:${source.id}|${name ?? ''}|${perPage}|${offset}`, requestMark(ctx.user), async () => {
          const listed = await service.list(source.scope, name ?? undefined, perPage, offset);
          return { badges: listed, total: await totalFor(ctx.page, listed.length, () => service.count(source.scope, name ?? undefined)) };
        });
        const values = await valuesFor(source, badges);
        const rendered = await renderAll(badges, values);
        const shown = badges.map((badge, index) => presentBadge(badge, rendered[index]!));
        return page(shown, total);
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${path}/render`,
      auth: 'optional',
      response: { schema: badgePreviewSchema },
      input: params(urls),
      async handler(ctx, input) {
        // GitLab asks for a sign-in inside the endpoint, once the params are known to be there.
        if (!ctx.user) throw unauthorized();
        const source = await mount.source(ctx, true);
        const badge = service.build(input);
        return presentPreview(badge, await renderBoth(badge, await valuesFor(source, [badge])));
      },
    }),
    defineRoute({
      method: 'GET',
      path: itemPath,
      auth: 'optional',
      response: { schema: badgeSchema },
      input: params({ badge_id: f.id() }),
      async handler(ctx, { badge_id }) {
        const source = await mount.source(ctx, false);
        const badge = await service.find(source.scope, badge_id);
        return presentBadge(badge, await renderBoth(badge, await valuesFor(source, [badge])));
      },
    }),
    defineRoute({
      method: 'POST',
      path,
      response: { schema: badgeSchema },
      input: params({ ...urls, name: f.optional(f.string()) }),
      exemptFrom,
      async handler(ctx, input) {
        const source = await mount.source(ctx, true);
        const badge = await service.create(kind, source.id, input);
        return created(presentBadge(badge, await renderBoth(badge, await valuesFor(source, [badge]))));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: itemPath,
      response: { schema: badgeSchema },
      input: params({
        badge_id: f.id(),
        link_url: f.optional(f.string()),
        image_url: f.optional(f.string()),
        name: f.optional(f.string()),
      }),
      exemptFrom,
      async handler(ctx, { badge_id, ...input }) {
        const source = await mount.source(ctx, true);
        // Only the source's own badges change here: a group's badges change through the group.
        const badge = await service.update(await service.find(ownBadges(source), badge_id), input);
        return presentBadge(badge, await renderBoth(badge, await valuesFor(source, [badge])));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: itemPath,
      response: { status: 204, errors: [403, 412] },
      input: params({ badge_id: f.id() }),
      exemptFrom,
      async handler(ctx, { badge_id }) {
        const source = await mount.source(ctx, true);
        const badge = await service.find(source.scope, badge_id);
        if (badge.kind !== kind) throw frameworkError(403, 'To delete a Group badge please use the Group endpoint');
        await service.remove(badge, ctx.header('If-Unmodified-Since'));
        return noContent();
      },
    }),
  ];
}

/** The scope of a source's own badges: a project's without its groups'. */
const ownBadges = (source: BadgeSource): BadgeScope => (source.scope.kind === 'project' ? { ...source.scope, groupIds: [] } : source.scope);
