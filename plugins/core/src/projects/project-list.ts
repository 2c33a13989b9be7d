/** Project lists (`/projects`, `/groups/:id/projects`): visibility, filters, and one query per page plus a count. */
import {
  defineRoute,
  f,
  frameworkError,
  keysetPage,
  page,
  params,
  totalFromRows,
  TOTAL_COLUMN,
  type Database,
  type ParamsSchema,
  type RequestContext,
  type Route,
} from '@forgekit/kernel';
import type * as v from 'valibot';
import { containsText, type Knex } from '@forgekit/kernel/orm';
import type { AccessService, VisibilityFilter } from '../access/access-service.js';
import { Project } from '../entities/project.js';
import type { UserRow } from '../entities/user.js';
import { AccessLevel, Visibility, VISIBILITY_NAMES } from '../shared/levels.js';
import { projectsWithNamespace, type ProjectWithNamespace } from './project-query.js';
import { projectBasic, projectFull } from './project-presenter.js';
import type { ProjectService } from './project-service.js';

const ORDER_COLUMNS: Record<string, string> = {
  id: 'p.id',
  name: 'p.name',
  path: 'p.path',
  created_at: 'p.created_at',
  updated_at: 'p.updated_at',
  last_activity_at: 'p.last_activity_at',
  star_count: 'p.id',
  similarity: 'p.name',
};

/** Owner columns of personal projects, joined so a page costs one query. */
const OWNER_COLUMNS = ['o.username as owner_username', 'o.name as owner_name', 'o.state as owner_state', 'o.public_email as owner_public_email'];

type OwnerColumns = { owner_username: string | null; owner_name: string; owner_state: string; owner_public_email: string | null };

function ownerOf(row: ProjectWithNamespace & OwnerColumns): UserRow | null {
  if (row.ns_kind !== 'user' || !row.owner_username) return null;
  return { id: row.ns_owner_id!, username: row.owner_username, name: row.owner_name, state: row.owner_state, public_email: row.owner_public_email } as UserRow;
}

export const projectListFilters = {
  pagination: f.optional(f.values(['offset', 'keyset'])),
  search: f.optional(f.string()),
  owned: f.optional(f.boolean(), false),
  membership: f.optional(f.boolean(), false),
  simple: f.optional(f.boolean(), false),
  visibility: f.optional(f.values(VISIBILITY_NAMES)),
  archived: f.optional(f.boolean()),
  min_access_level: f.optional(f.values([10, 15, 20, 30, 40, 50], f.integer())),
  repository_storage: f.optional(f.string()),
  topic: f.optional(f.commaList()),
  id_after: f.optional(f.id()),
  id_before: f.optional(f.id()),
  last_activity_after: f.optional(f.datetime()),
  last_activity_before: f.optional(f.datetime()),
  order_by: f.optional(f.values(Object.keys(ORDER_COLUMNS)), 'created_at'),
  sort: f.optional(f.values(['asc', 'desc']), 'desc'),
  statistics: f.optional(f.boolean()),
  with_custom_attributes: f.optional(f.boolean()),
};

export type ScopeFn = (ctx: RequestContext, input: Record<string, unknown>) => Promise<(query: Knex.QueryBuilder) => unknown>;

/** A project list; `scope` narrows it (one group's projects), reading any `extraFilters` it declares. */
export function projectListRoute(
  path: string,
  database: Database,
  access: AccessService,
  visibility: VisibilityFilter,
  projects: ProjectService,
  scope?: ScopeFn,
  extraFilters: v.ObjectEntries = {},
): Route {
  return defineRoute({
    method: 'GET',
    path,
    auth: 'optional',
    paginated: true,
    input: params({ ...projectListFilters, ...extraFilters }) as ParamsSchema<v.InferOutput<v.ObjectSchema<typeof projectListFilters, undefined>>>,
    async handler(ctx, input) {
      const user = ctx.user;
      const scoped = scope ? await scope(ctx, input) : null;
      const filter = (query: Knex.QueryBuilder) => {
        if (scoped) scoped(query);
        if (input.owned) visibility.projects(query, user, { membershipOnly: true, minLevel: AccessLevel.OWNER });
        else if (input.min_access_level) visibility.projects(query, user, { membershipOnly: true, minLevel: input.min_access_level });
        else if (input.membership) visibility.projects(query, user, { membershipOnly: true });
        else visibility.projects(query, user);
        if (input.search) {
          const search = input.search;
          query.where((s) =>
            s
              .where(containsText(s, 'p.name', search))
              .orWhere(containsText(s, 'p.path', search))
              .orWhere(containsText(s, 'p.description', search)),
          );
        }
        if (input.visibility) query.where('p.visibility_level', Visibility[input.visibility]);
        if (input.archived !== undefined && input.archived !== null) query.where('p.archived', input.archived);
        if (input.repository_storage && user?.isAdmin) query.where('p.repository_storage', input.repository_storage);
        for (const topic of input.topic ?? []) query.where(containsText(query, 'p.topics', JSON.stringify(topic)));
        if (input.id_after) query.where('p.id', '>', input.id_after);
        if (input.id_before) query.where('p.id', '<', input.id_before);
        if (input.last_activity_after) query.where('p.last_activity_at', '>', input.last_activity_after);
        if (input.last_activity_before) query.where('p.last_activity_at', '<', input.last_activity_before);
      };

      const matching = () => database.legacy.table(Project, 'p').join('namespaces as n', 'n.id', 'p.namespace_id').modify(filter);

      const simple = input.simple || !user;
      const keyset = input.pagination === 'keyset';
      if (keyset && input.order_by !== 'id') throw frameworkError(405, 'Keyset pagination is not yet available for this type of request');
      const query = projectsWithNamespace(database)
        .leftJoin('users as o', 'o.id', 'n.owner_id')
        .select(database.legacy.quotedColumns(OWNER_COLUMNS))
        .modify(filter)
        .orderBy(ORDER_COLUMNS[input.order_by!]!, input.sort!)
        .orderBy('p.id', input.sort!);
      // Keyset pages read one row more, to know whether a next page exists. Offset pages carry
      // their total as an uncorrelated subquery, which the database runs once and which, unlike
      // a window count, does not make it build every matching row before the limit.
      if (keyset) query.limit(ctx.page.perPage + 1);
      else query.select(matching().count('*').as(TOTAL_COLUMN)).limit(ctx.page.perPage).offset(ctx.page.offset);
      const fetched = (await database.legacy.rows(Project, query)) as (ProjectWithNamespace & OwnerColumns)[];
      const rows = fetched.slice(0, ctx.page.perPage);
      const present = async () => {
        if (simple) return rows.map((row) => projectBasic(row, ctx.externalUrl, projects.fieldExtensions));
        const permissions = await access.projectPermissions(user!, rows);
        return rows.map((row) =>
          projectFull(row, {
            extensions: projects.fieldExtensions,
            externalUrl: ctx.externalUrl,
            isAdmin: user!.isAdmin,
            owner: ownerOf(row),
            permissions: permissions.get(row.id),
          }),
        );
      };
      if (keyset) {
        const last = rows[rows.length - 1];
        const next = fetched.length > rows.length && last ? { [input.sort === 'asc' ? 'id_after' : 'id_before']: last.id } : null;
        return keysetPage(await present(), next);
      }
      const total = await totalFromRows(ctx.page, rows, () => database.legacy.count(matching()));
      return page(await present(), total);
    },
  });
}
