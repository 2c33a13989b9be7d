/** Project lists (`/projects`, `/groups/:id/projects`): visibility, filters, and one query per page plus a count. */
import {
  defineRoute,
  f,
  frameworkError,
  keysetPage,
  page,
  params,
  keptList,
  keptUnderMark,
  PAGES_KEPT,
  requestMark,
  totalFromRows,
  TOTAL_COLUMN,
  type Database,
  type JsonText,
  type ParamsSchema,
  type RequestContext,
  type Route,
} from '@forgekit/kernel';
import type * as v from 'valibot';
import { readsByShape, type Conditions, type Direction, type PreparedRead, type Value } from '@forgekit/kernel/orm';
import type { VisibilityFilter } from '../access/access-service.js';
import type { AccessService, Project, ProjectPermissions } from '../contracts.js';
import { NamespaceEntity } from '../entities/namespace.js';
import { ProjectEntity } from '../entities/project.js';
import { UserEntity } from '../entities/user.js';
import { AccessLevel, today, Visibility, VISIBILITY_NAMES } from '../shared/levels.js';
import { USER_BASIC_PROPERTIES } from '../users/user-query.js';
import type { UserBasicSource } from '../users/user-presenter.js';
import { asProjects, projectsWithNamespace } from './project-query.js';
import type { ProjectFragments, ProjectKey } from './project-fragments.js';
import { projectBasicSchema } from './project-schemas.js';

/** A list's conditions: over projects `p` in their namespaces `n`. */
type ProjectConditions = Conditions<{ p: typeof ProjectEntity; n: typeof NamespaceEntity }, 'p'>;

const ORDER_PROPERTIES = {
  id: 'p.id',
  name: 'p.name',
  path: 'p.path',
  created_at: 'p.createdAt',
  updated_at: 'p.updatedAt',
  last_activity_at: 'p.lastActivityAt',
  star_count: 'p.id',
  similarity: 'p.name',
} as const;

/** A personal project's owner, read beside it so a page costs one query (null for a group's project). */
type WithOwner = Project & { owner: UserBasicSource | null };

/** Page statements kept, one per plain list's order, caller kind, membership filter and pagination. */
const PLAIN_SHAPES = 100;

type PageParams = 'limit' | 'offset' | 'user' | 'today';

/** A page read as keys, with the caller's levels in its projects when the view shows them. */
interface KeptPage {
  fetched: readonly ProjectKey[];
  permissions: Map<number, ProjectPermissions> | undefined;
  /** The page's texts as last presented, by view and external URL, when every project had a kept fragment. */
  presented?: { as: string; items: readonly JsonText[] };
}

/** What a page read as keys reads of a project's namespace and owner (see `ProjectKey`). */
const KEY_NAMESPACE_PROPERTIES = ['id', 'lockVersion', 'kind', 'traversalPath', 'ownerId'] as const;
const KEY_OWNER_PROPERTIES = ['id', 'lockVersion'] as const;

type ListInput = v.InferOutput<v.ObjectSchema<typeof projectListFilters, undefined>>;

/**
 * Whether a list's page can be one statement built once per shape: no filter of the caller's
 * but the membership ones, and not narrowed to a group. The visibility filter's reads of the
 * caller (their id) and of the day (members' expiry dates) are parameters of the statement.
 */
function isPlainList(input: ListInput, user: RequestContext['user'], scoped: boolean): boolean {
  if (scoped || input.search || input.visibility || (input.archived !== undefined && input.archived !== null)) return false;
  if ((input.repository_storage && user?.isAdmin) || (input.topic ?? []).length > 0) return false;
  return !(input.id_after || input.id_before || input.last_activity_after || input.last_activity_before);
}

/** Who asks, as far as the visibility filter's statement differs. */
const askerKind = (user: RequestContext['user']) => (!user ? 'anonymous' : user.isAdmin ? 'admin' : user.external ? 'external' : 'user');

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
  order_by: f.optional(f.values(Object.keys(ORDER_PROPERTIES) as (keyof typeof ORDER_PROPERTIES)[]), 'created_at'),
  sort: f.optional(f.values(['asc', 'desc']), 'desc'),
  statistics: f.optional(f.boolean()),
  with_custom_attributes: f.optional(f.boolean()),
};

export type ScopeFn = (ctx: RequestContext, input: Record<string, unknown>) => Promise<(query: ProjectConditions) => unknown>;

/** A project list; `scope` narrows it (one group's projects), reading any `extraFilters` it declares. */
export function projectListRoute(
  path: string,
  database: Database,
  access: AccessService,
  visibility: VisibilityFilter,
  fragments: ProjectFragments,
  scope?: ScopeFn,
  extraFilters: v.ObjectEntries = {},
): Route {
  const plainPages = readsByShape<PreparedRead<WithOwner | ProjectKey, PageParams>>(PLAIN_SHAPES);
  /**
   * Plain pages read as keys, by shape, page and caller, kept between reading requests under
   * their change mark; the caller's levels in the page's projects join the kept page once read.
   */
  const keptPageKeys = keptUnderMark<KeptPage>(PAGES_KEPT);
  let byIds: PreparedRead<WithOwner, 'ids'> | undefined;
  /** Whole rows of a page's projects that have no kept fragment. */
  const wholeByIds = () =>
    (byIds ??= database.prepareRows((p: Record<'ids', never>) =>
      projectsWithNamespace(database).leftJoin(UserEntity, 'o', 'o.id', 'n.ownerId').nest('owner', 'o', USER_BASIC_PROPERTIES).whereIn('p.id', p.ids),
    ) as unknown as PreparedRead<WithOwner, 'ids'>);
  return defineRoute({
    method: 'GET',
    path,
    auth: 'optional',
    paginated: true,
    // Simple and anonymous lists give the basic view, the others the full one (which holds it).
    response: { schema: projectBasicSchema, errors: [405] },
    input: params({ ...projectListFilters, ...extraFilters }) as ParamsSchema<v.InferOutput<v.ObjectSchema<typeof projectListFilters, undefined>>>,
    async handler(ctx, input) {
      const user = ctx.user;
      const scoped = scope ? await scope(ctx, input) : null;
      // `asker` and `date` are the caller and today, or parameters of a statement built once per shape.
      const filter = (query: ProjectConditions, asker: RequestContext['user'] = user, date: Value = today()) => {
        if (scoped) scoped(query);
        if (input.owned) visibility.projects(query, asker, { membershipOnly: true, minLevel: AccessLevel.OWNER }, date);
        else if (input.min_access_level) visibility.projects(query, asker, { membershipOnly: true, minLevel: input.min_access_level }, date);
        else if (input.membership) visibility.projects(query, asker, { membershipOnly: true }, date);
        else visibility.projects(query, asker, {}, date);
        if (input.search) query.whereContains(['p.name', 'p.path', 'p.description'], input.search);
        if (input.visibility) query.where('p.visibilityLevel', Visibility[input.visibility]);
        if (input.archived !== undefined && input.archived !== null) query.where('p.archived', input.archived);
        if (input.repository_storage && user?.isAdmin) query.where('p.repositoryStorage', input.repository_storage);
        for (const topic of input.topic ?? []) query.whereContains(['p.topics'], JSON.stringify(topic));
        if (input.id_after) query.where('p.id', '>', input.id_after);
        if (input.id_before) query.where('p.id', '<', input.id_before);
        if (input.last_activity_after) query.where('p.lastActivityAt', '>', input.last_activity_after);
        if (input.last_activity_before) query.where('p.lastActivityAt', '<', input.last_activity_before);
      };

      const matching = (asker?: RequestContext['user'], date?: Value) =>
        database
          .table(ProjectEntity, 'p')
          .join(NamespaceEntity, 'n', 'n.id', 'p.namespaceId')
          .modify((query) => filter(query, asker, date));

      const simple = input.simple || !user;
      const keyset = input.pagination === 'keyset';
      if (keyset && input.order_by !== 'id') throw frameworkError(405, 'Keyset pagination is not yet available for this type of request');
      // `keys`: the page as `ProjectKey`s, the fragments' keys, instead of whole rows.
      const pageQuery = (limit: number, offset: number, asker: RequestContext['user'] = user, date: Value = today(), keys = false) => {
        const query = keys
          ? database
              .table(ProjectEntity, 'p')
              .join(NamespaceEntity, 'n', 'n.id', 'p.namespaceId')
              .select('p.id', 'p.lockVersion', 'p.repositoryStorage')
              .nest('namespace', 'n', KEY_NAMESPACE_PROPERTIES)
          : projectsWithNamespace(database);
        query
          .leftJoin(UserEntity, 'o', 'o.id', 'n.ownerId')
          .nest('owner', 'o', keys ? KEY_OWNER_PROPERTIES : USER_BASIC_PROPERTIES)
          .modify((conditions) => filter(conditions, asker, date))
          .orderBy(ORDER_PROPERTIES[input.order_by!], input.sort as Direction)
          .orderBy('p.id', input.sort as Direction);
        // Keyset pages read one row more, to know whether a next page exists. Offset pages carry
        // their total as an uncorrelated subquery, which the database runs once and which, unlike
        // a window count, does not make it build every matching row before the limit.
        if (keyset) query.limit(limit);
        else query.selectQuery(TOTAL_COLUMN, matching(asker, date).count()).limit(limit).offset(offset);
        return query;
      };
      const limit = keyset ? ctx.page.perPage + 1 : ctx.page.perPage;
      const pageFragments = fragments.forPage();
      const view = simple ? 'basic' : 'full';
      const presentWhole = (row: WithOwner, permissions: Map<number, ProjectPermissions> | undefined) =>
        simple
          ? pageFragments.basic(row, ctx.externalUrl)
          : pageFragments.full(row, { externalUrl: ctx.externalUrl, isAdmin: user!.isAdmin, owner: row.owner, permissions: permissions!.get(row.id) });

      let fetched: (WithOwner | ProjectKey)[];
      let wholeRows = true;
      /** The plain list's page as kept under the mark, with the caller's levels and texts once known. */
      let keptPage: KeptPage | undefined;
      if (isPlainList(input, user, scoped !== null)) {
        // With the presented cache, the page is read as keys, and only the rows without a kept fragment whole.
        wholeRows = !fragments.enabled;
        const membership = input.owned ? 'owned' : input.min_access_level ? `min${input.min_access_level}` : input.membership ? 'member' : 'all';
        const shape = `${askerKind(user)}|${membership}|${input.order_by}|${input.sort}|${keyset}|${wholeRows}`;
        const read = plainPages(
          shape,
          () =>
            database.prepareRows((p: Record<PageParams, never>) =>
              pageQuery(p.limit, p.offset, user && ({ ...user, id: p.user } as NonNullable<RequestContext['user']>), p.today, !wholeRows),
            ) as unknown as PreparedRead<WithOwner | ProjectKey, PageParams>,
        );
        const readPage = async (): Promise<KeptPage> => ({
          fetched: (await read.all({ limit, offset: ctx.page.offset, user: user?.id ?? null, today: today() })) as ProjectKey[],
          permissions: undefined,
        });
        const mark = wholeRows ? undefined : requestMark(user);
        keptPage = await keptPageKeys(`${shape}|${limit}|${ctx.page.offset}|${user?.id ?? ''}`, mark, readPage);
        fetched = keptPage.fetched as ProjectKey[];
      } else {
        fetched = asProjects<WithOwner>(await database.rows(pageQuery(limit, ctx.page.offset)));
      }
      const rows = fetched.slice(0, ctx.page.perPage);
      const presentedAs = `${view}|${ctx.externalUrl}`;
      const present = async (): Promise<readonly unknown[]> => {
        if (keptPage?.presented?.as === presentedAs) return keptPage.presented.items;
        let permissions = keptPage?.permissions;
        if (!simple && !permissions) {
          permissions = await access.projectPermissions(user!, rows as Project[]);
          if (keptPage) keptPage.permissions = permissions;
        }
        if (wholeRows) return (rows as WithOwner[]).map((row) => presentWhole(row, permissions));
        const texts = (rows as ProjectKey[]).map((key) => {
          const kept = pageFragments.kept(view, key, ctx.externalUrl);
          if (!kept) return undefined;
          return simple ? pageFragments.keptBasic(kept) : pageFragments.keptFull(kept, { isAdmin: user!.isAdmin, permissions: permissions!.get(key.id) });
        });
        const missing = rows.filter((_, i) => texts[i] === undefined).map((row) => row.id);
        if (missing.length === 0) {
          // A kept page's texts are sent as one body made once.
          if (keptPage) keptPage.presented = { as: presentedAs, items: keptList(texts as JsonText[]) };
          return texts as JsonText[];
        }
        const whole = new Map((await wholeByIds().all({ ids: missing })).map((row) => [row.id, row]));
        // A project deleted since the page was read is left out, as a page read a moment later would.
        return rows.flatMap((row, i) => {
          const found = whole.get(row.id);
          return texts[i] ?? (found ? [presentWhole(found, permissions)] : []);
        });
      };
      if (keyset) {
        const last = rows[rows.length - 1];
        const next = fetched.length > rows.length && last ? { [input.sort === 'asc' ? 'id_after' : 'id_before']: last.id } : null;
        return keysetPage(await present(), next);
      }
      const total = await totalFromRows(ctx.page, rows, () => database.count(matching()));
      return page(await present(), total);
    },
  });
}
