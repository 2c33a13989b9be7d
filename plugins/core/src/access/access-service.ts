/**
 * The caller's effective access to projects and groups: admin, direct and inherited
 * membership, personal ownership and visibility. 404 for what the caller may not
 * see, 403 for what they see but may not do.
 */
import { forbidden, keptUnderMark, notFound, requestMark, type Database, type Principal } from '@forgekit/kernel';
import { readsByShape, recordId, ref, sql, type Conditions, type PreparedRead, type Query, type Value } from '@forgekit/kernel/orm';
import type { AccessService, GroupAccess, Namespace, Project, ProjectAccess, ProjectPermissions, User, UserService, VisibilityOptions } from '../contracts.js';
import { MemberEntity } from '../entities/member.js';
import { NamespaceEntity } from '../entities/namespace.js';
import { ProjectEntity } from '../entities/project.js';
import { asProjectRead, projectsWithNamespace } from '../projects/project-query.js';
import { AccessLevel, today, Visibility } from '../shared/levels.js';
import { traversalIds } from '../shared/traversal.js';
import { principalOf } from '../users/user-principal.js';

/** Queries over projects `p` in their namespaces `n`, and over groups `n`, as the visibility filters narrow them. */
type ProjectScope = { p: typeof ProjectEntity; n: typeof NamespaceEntity };
type GroupScope = { n: typeof NamespaceEntity };
type MemberScope = { m: typeof MemberEntity };

const isInteger = (value: string) => /^\d+$/.test(value);

/** Project rows kept for reading requests (see `keptRows`); past this many, the memo starts again. */
const ROWS_KEPT = 1024;

/** Looks an id up, unless no record can have it (then nothing is found). */
const withRecordId = async <T>(text: string, find: (id: number) => Promise<T | undefined>): Promise<T | undefined> => {
  const id = recordId(text);
  return id === null ? undefined : find(id);
};

/** A user's highest direct project level and highest level in the project's group or its ancestors. */
interface MemberLevels {
  memberProjectLevel: number | null;
  memberGroupLevel: number | null;
}
const NO_LEVELS: MemberLevels = { memberProjectLevel: null, memberGroupLevel: null };

/** A membership row `m` still in force on `date`. */
const active = (date: Value) => (q: Conditions<MemberScope, 'm'>) => q.whereNull('m.expiresAt').orWhere('m.expiresAt', '>', date);
/** The namespace `n` is the group `g` or lies below it: GitLab's traversal-path prefix, two columns compared. */
const WITHIN_GROUP = sql`${ref('n.traversalPath')} like ${ref('g.traversalPath')} || '%'`;

const maxOf = (values: (number | undefined)[]) => {
  const present = values.filter((value): value is number => value !== undefined);
  return present.length > 0 ? Math.max(...present) : null;
};

function visibleByLevel(visibility: number, user: Principal | null) {
  if (visibility >= Visibility.public) return true;
  return visibility >= Visibility.internal && !!user && !user.external;
}

/** Core's own lookups, which other plugins reach only through the AccessService. */
export function createProjectLookup(database: Database) {
  const byId = asProjectRead(database.prepareRows((p) => projectsWithNamespace(database).where('p.id', p.id)));
  const groups = () => database.from(NamespaceEntity).where('kind', 'group');
  // Every group route starts here: compiled once rather than built per request.
  const groupById = database.prepareRows((p) => groups().where('id', p.id).limit(1));
  return {
    byId,
    async findProject(idOrPath: string): Promise<Project | undefined> {
      if (isInteger(idOrPath)) return withRecordId(idOrPath, (id) => byId.first({ id }));
      const slash = idOrPath.lastIndexOf('/');
      if (slash <= 0) return undefined;
      const query = projectsWithNamespace(database)
        .whereIgnoringCase('n.fullPath', idOrPath.slice(0, slash))
        .whereIgnoringCase('p.path', idOrPath.slice(slash + 1));
      return (await database.row(query)) as Project | undefined;
    },
    async findGroup(idOrPath: string): Promise<Namespace | undefined> {
      const group = isInteger(idOrPath)
        ? await withRecordId(idOrPath, (id) => groupById.first({ id }))
        : await database.row(groups().whereIgnoringCase('fullPath', idOrPath));
      return group as Namespace | undefined;
    },
  };
}

export type ProjectLookup = ReturnType<typeof createProjectLookup>;

/** Narrows queries over core's tables to what a user may see; core's list routes use it, other plugins ask for ids. */
export function createVisibility() {
  /** A membership of the user, at `minLevel` or above, in the group `n` or one of its ancestors. */
  const groupMembership = (userId: number, minLevel: number, date: Value) => (m: Query<GroupScope & MemberScope, 'm'>) =>
    m
      .join(NamespaceEntity, 'g', 'g.id', 'm.sourceId')
      .where('m.userId', userId)
      .where('m.sourceType', 'Namespace')
      .where('m.accessLevel', '>=', minLevel)
      .where(WITHIN_GROUP)
      .where(active(date));

  return {
    /** Narrows a query over projects `p` in namespaces `n` to what the user may see (memberships in force on `date`). */
    projects<Q extends Conditions<ProjectScope, 'p'>>(query: Q, user: Principal | null, options: VisibilityOptions = {}, date: Value = today()): Q {
      if (user?.isAdmin && !options.membershipOnly && !options.minLevel) return query;
      const minLevel = options.minLevel ?? AccessLevel.GUEST;
      return query.where((q) => {
        if (!options.membershipOnly && !options.minLevel) {
          q.orWhere('p.visibilityLevel', '>=', user && !user.external ? Visibility.internal : Visibility.public);
        }
        if (!user) {
          // An anonymous caller is a member of nothing: a membership filter matches no row, as in GitLab.
          if (options.membershipOnly || options.minLevel) q.whereNone();
          return;
        }
        q.orWhereExists(MemberEntity, 'm', (m) =>
          m
            .where('m.userId', user.id)
            .where('m.sourceType', 'Project')
            .whereColumn('m.sourceId', 'p.id')
            .where('m.accessLevel', '>=', minLevel)
            .where(active(date)),
        );
        q.orWhereExists(MemberEntity, 'm', groupMembership(user.id, minLevel, date));
        q.orWhere((personal) => personal.where('n.kind', 'user').where('n.ownerId', user.id));
      });
    },
    /** Narrows a query over groups `n` to what the user may see. */
    groups<Q extends Conditions<GroupScope, 'n'>>(query: Q, user: Principal | null, options: VisibilityOptions = {}): Q {
      if (user?.isAdmin && !options.membershipOnly && !options.minLevel) return query;
      const minLevel = options.minLevel ?? AccessLevel.GUEST;
      return query.where((q) => {
        if (!options.membershipOnly && !options.minLevel) {
          q.orWhere('n.visibilityLevel', '>=', user && !user.external ? Visibility.internal : Visibility.public);
        }
        if (!user) {
          // An anonymous caller is a member of nothing: a membership filter matches no row, as in GitLab.
          if (options.membershipOnly || options.minLevel) q.whereNone();
          return;
        }
        q.orWhereExists(MemberEntity, 'm', groupMembership(user.id, minLevel, today()));
      });
    },
  };
}

export type VisibilityFilter = ReturnType<typeof createVisibility>;

export function createAccessService(
  database: Database,
  lookup: ProjectLookup,
  visibility: VisibilityFilter,
  users: Pick<UserService, 'findByIds'>,
): AccessService {
  /** A user's memberships among some projects and namespaces, still in force: runs on most requests. */
  const membershipRead = database.prepareRows((p) =>
    database
      .table(MemberEntity, 'm')
      .select('m.sourceType', 'm.sourceId', 'm.accessLevel')
      .where('m.userId', p.user)
      .where((sources) =>
        sources
          .orWhere((q) => q.where('m.sourceType', 'Project').whereIn('m.sourceId', p.projects))
          .orWhere((q) => q.where('m.sourceType', 'Namespace').whereIn('m.sourceId', p.namespaces)),
      )
      .where(active(p.today)),
  );

  /** Active memberships of a user in the given sources, as `Project:1` / `Namespace:5` → level. */
  async function membershipLevels(userId: number, projectIds: number[], namespaceIds: number[]) {
    const levels = new Map<string, number>();
    if (projectIds.length === 0 && namespaceIds.length === 0) return levels;
    for (const row of await membershipRead.all({ user: userId, projects: projectIds, namespaces: namespaceIds, today: today() })) {
      levels.set(`${row.sourceType}:${row.sourceId}`, row.accessLevel);
    }
    return levels;
  }

  /** The project by id with the user's direct and group levels, in one statement (most requests name a project by id). */
  const projectByIdWithLevels = asProjectRead<'user' | 'today' | 'id', Project & MemberLevels>(
    database.prepareRows((p) =>
      projectsWithNamespace(database)
        .selectQuery('memberProjectLevel', MemberEntity, 'm', (m) =>
          m.max({ level: 'm.accessLevel' }).where('m.userId', p.user).where('m.sourceType', 'Project').whereColumn('m.sourceId', 'p.id').where(active(p.today)),
        )
        .selectQuery('memberGroupLevel', MemberEntity, 'm', (m) =>
          m
            .max({ level: 'm.accessLevel' })
            .join(NamespaceEntity, 'g', 'g.id', 'm.sourceId')
            .where('m.userId', p.user)
            .where('m.sourceType', 'Namespace')
            .where('n.kind', 'group')
            .where(WITHIN_GROUP)
            .where(active(p.today)),
        )
        .where('p.id', p.id),
    ),
  );

  function accessFrom(user: Principal | null, project: Project, levels: MemberLevels): ProjectAccess {
    let projectLevel = levels.memberProjectLevel ?? null;
    const groupLevel = levels.memberGroupLevel ?? null;
    if (user && project.namespace.kind === 'user' && project.namespace.ownerId === user.id) projectLevel = AccessLevel.OWNER;
    const memberLevel = Math.max(projectLevel ?? 0, groupLevel ?? 0);
    const level = user?.isAdmin ? AccessLevel.OWNER : memberLevel;
    const canRead = !!user?.isAdmin || memberLevel >= AccessLevel.GUEST || visibleByLevel(project.visibilityLevel, user);
    return { project, level, projectLevel, groupLevel, canRead };
  }

  async function projectAccess(user: Principal | null, project: Project): Promise<ProjectAccess> {
    if (!user) return accessFrom(user, project, NO_LEVELS);
    const groupIds = project.namespace.kind === 'group' ? traversalIds(project.namespace.traversalPath) : [];
    const levels = await membershipLevels(user.id, [project.id], groupIds);
    return accessFrom(user, project, {
      memberProjectLevel: levels.get(`Project:${project.id}`) ?? null,
      memberGroupLevel: maxOf(groupIds.map((id) => levels.get(`Namespace:${id}`))),
    });
  }

  /**
   * What a route guard looked up for the caller's request, handed to the route's own
   * `requireProject` of the same project once, so the request reads the project once. Keyed
   * on the caller object, which the kernel makes anew for every request.
   */
  const lookedUp = new WeakMap<Principal, { idOrPath: string; access: ProjectAccess | null }>();

  async function lookUpForRequest(user: Principal | null, idOrPath: string): Promise<ProjectAccess | null> {
    // A second look-up in the request (a route's after the archived-project guard's) takes the first's answer.
    const earlier = user ? lookedUp.get(user) : undefined;
    if (earlier && earlier.idOrPath === idOrPath) return earlier.access;
    const access = await findProjectAccess(user, idOrPath);
    if (user) lookedUp.set(user, { idOrPath, access });
    return access;
  }

  function takeLookedUp(user: Principal | null, idOrPath: string): { access: ProjectAccess | null } | undefined {
    const found = user ? lookedUp.get(user) : undefined;
    if (!found || found.idOrPath !== idOrPath) return undefined;
    lookedUp.delete(user!);
    return found;
  }

  /** Rows of `projectByIdWithLevels` by caller and project, kept between reading requests under their change mark. */
  const keptRows = keptUnderMark<(Project & MemberLevels) | undefined>(ROWS_KEPT, (row) => row && { ...row, namespace: { ...row.namespace } });

  const projectRowWithLevels = (user: Principal, id: number) =>
    keptRows(`${user.id}:${id}`, requestMark(user), () => projectByIdWithLevels.first({ user: user.id, today: today(), id }));

  /** A project by id or path with the caller's access. */
  async function findProjectAccess(user: Principal | null, idOrPath: string): Promise<ProjectAccess | null> {
    if (user && isInteger(idOrPath)) {
      const row = await withRecordId(idOrPath, (id) => projectRowWithLevels(user, id));
      if (!row) return null;
      const { memberProjectLevel, memberGroupLevel, ...project } = row;
      return accessFrom(user, project, { memberProjectLevel, memberGroupLevel });
    }
    const project = await lookup.findProject(idOrPath);
    return project ? projectAccess(user, project) : null;
  }

  async function groupAccess(user: Principal | null, group: Namespace): Promise<GroupAccess> {
    let directLevel: number | null = null;
    let inheritedLevel: number | null = null;
    let viaDescendant = false;
    if (user) {
      const ids = traversalIds(group.traversalPath);
      const levels = await membershipLevels(user.id, [], ids);
      directLevel = levels.get(`Namespace:${group.id}`) ?? null;
      inheritedLevel = maxOf(ids.map((id) => levels.get(`Namespace:${id}`)));
      if (!user.isAdmin && (inheritedLevel ?? 0) < AccessLevel.GUEST && !visibleByLevel(group.visibilityLevel, user)) {
        viaDescendant = await memberOfDescendant(user.id, group);
      }
    }
    const level = user?.isAdmin ? AccessLevel.OWNER : (inheritedLevel ?? 0);
    const canRead = !!user?.isAdmin || level >= AccessLevel.GUEST || visibleByLevel(group.visibilityLevel, user) || viaDescendant;
    return { group, level, directLevel, inheritedLevel, canRead };
  }

  /** Members of a subgroup or project may see the groups above it. */
  async function memberOfDescendant(userId: number, group: Namespace) {
    const viaGroup = database
      .table(MemberEntity, 'm')
      .join(NamespaceEntity, 'g', 'g.id', 'm.sourceId')
      .where('m.userId', userId)
      .where('m.sourceType', 'Namespace')
      .whereStartsWith('g.traversalPath', group.traversalPath);
    if ((await database.count(viaGroup.limit(1))) > 0) return true;
    const viaProject = database
      .table(MemberEntity, 'm')
      .join(ProjectEntity, 'p', 'p.id', 'm.sourceId')
      .join(NamespaceEntity, 'n', 'n.id', 'p.namespaceId')
      .where('m.userId', userId)
      .where('m.sourceType', 'Project')
      .whereStartsWith('n.traversalPath', group.traversalPath);
    return (await database.count(viaProject.limit(1))) > 0;
  }

  /** The projects the user may see (or is a member of at `minLevel`), optionally under a group, selecting `p.id`. */
  function visibleProjects(user: Principal | null, options: VisibilityOptions & { underTraversalPath?: string }) {
    const query = database.table(ProjectEntity, 'p').join(NamespaceEntity, 'n', 'n.id', 'p.namespaceId').select('p.id');
    if (options.underTraversalPath !== undefined) query.whereStartsWith('n.traversalPath', options.underTraversalPath);
    return visibility.projects(query, user, options);
  }

  type VisibleIdsOptions = VisibilityOptions & { ids?: readonly number[]; underTraversalPath?: string; limit?: number };
  type Who = 'anonymous' | 'admin' | 'external' | 'user';
  const whoAsks = (user: Principal | null): Who => (!user ? 'anonymous' : user.isAdmin ? 'admin' : user.external ? 'external' : 'user');

  /** `visibleProjects` with the user's id, the date and the escaped group path as the parameters `names` stand for. */
  function visibleProjectsOver(
    user: Principal | null,
    options: VisibilityOptions & { underTraversalPath?: string },
    names: Record<'user' | 'today' | 'prefix', never>,
  ) {
    const asker = user && ({ ...user, id: names.user } as Principal);
    const query = database.table(ProjectEntity, 'p').join(NamespaceEntity, 'n', 'n.id', 'p.namespaceId').select('p.id');
    // `whereStartsWith` escapes its prefix as the statement is built: here the escaped prefix is a parameter.
    if (options.underTraversalPath !== undefined) query.where(sql`${ref('n.traversalPath')} like ${names.prefix} escape '\\'`);
    visibility.projects(query, asker, { membershipOnly: options.membershipOnly, minLevel: options.minLevel }, names.today);
    return query;
  }
  const prefixOf = (underTraversalPath: string | undefined) =>
    underTraversalPath === undefined ? null : `${underTraversalPath.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;

  const visibleIdsReads = readsByShape<PreparedRead<{ id: number }, string>>();
  /**
   * `visibleProjectIds`' statement, compiled once per shape: who asks (admin, anonymous,
   * external or not), the options set, `membershipOnly` and `minLevel`; the user, the date,
   * the group's path, the ids and the limit are parameters. Most list routes start here.
   */
  function visibleIdsRead(user: Principal | null, options: VisibleIdsOptions) {
    const { membershipOnly, minLevel, underTraversalPath, ids, limit } = options;
    const key = `${whoAsks(user)}|${!!membershipOnly}|${minLevel ?? ''}|${underTraversalPath !== undefined}|${ids !== undefined}|${!!limit}`;
    const read = visibleIdsReads(key, () =>
      database.prepareValues(
        (p) => {
          const query = visibleProjectsOver(user, options, p).orderBy('p.id');
          if (ids) query.whereIn('p.id', p.ids);
          if (limit) query.limit(p.limit);
          return query;
        },
        { id: 'number' },
      ),
    );
    const prefix = prefixOf(underTraversalPath);
    return { read, values: { user: user?.id ?? null, today: today(), prefix, ids: ids ? [...ids] : null, limit: limit || null } };
  }

  /** `permissions` for a page of projects: direct and group levels of the user, in one query. */
  async function projectPermissions(user: Principal, projects: readonly Project[]): Promise<Map<number, ProjectPermissions>> {
    const inGroup = (project: Project) => (project.namespace.kind === 'group' ? traversalIds(project.namespace.traversalPath) : []);
    const groupIds = [...new Set(projects.flatMap(inGroup))];
    const levels =
      projects.length > 0
        ? await membershipLevels(
            user.id,
            projects.map((p) => p.id),
            groupIds,
          )
        : new Map<string, number>();
    return new Map(
      projects.map((project) => {
        const personal = project.namespace.kind === 'user' && project.namespace.ownerId === user.id;
        const projectLevel = personal ? AccessLevel.OWNER : (levels.get(`Project:${project.id}`) ?? null);
        const groupLevel = project.namespace.kind === 'group' ? maxOf(inGroup(project).map((id) => levels.get(`Namespace:${id}`))) : null;
        return [project.id, { projectLevel, groupLevel }];
      }),
    );
  }

  return {
    projectAccess,
    groupAccess,
    projectPermissions,
    lookUpForRequest,
    async requireProject(user: Principal | null, idOrPath: string, minLevel = 0): Promise<ProjectAccess> {
      const taken = takeLookedUp(user, idOrPath);
      const access = taken ? taken.access : await findProjectAccess(user, idOrPath);
      if (!access?.canRead) throw notFound('Project');
      if (access.level < minLevel) throw forbidden();
      return access;
    },
    async requireGroup(user: Principal | null, idOrPath: string, minLevel = 0): Promise<GroupAccess> {
      const group = await lookup.findGroup(idOrPath);
      if (!group) throw notFound('Group');
      const access = await groupAccess(user, group);
      if (!access.canRead) throw notFound('Group');
      if (access.level < minLevel) throw forbidden();
      return access;
    },
    async visibleProjectIds(user, options = {}) {
      if (options.ids?.length === 0) return [];
      const { read, values } = visibleIdsRead(user, options);
      return (await read.all(values)).map((row) => row.id);
    },
    visibleProjectsQuery: (user, options = {}) => visibleProjects(user, options),
    visibleProjectsShape(user, options = {}) {
      const { membershipOnly, minLevel, underTraversalPath } = options;
      return {
        key: `${whoAsks(user)}|${!!membershipOnly}|${minLevel ?? ''}|${underTraversalPath !== undefined}`,
        values: { 'visible.user': user?.id ?? null, 'visible.today': today(), 'visible.prefix': prefixOf(underTraversalPath) },
        query: (p) => visibleProjectsOver(user, options, { user: p['visible.user'], today: p['visible.today'], prefix: p['visible.prefix'] }),
      };
    },
    async activeReadersOf(projectId, userIds) {
      const found = new Map((await users.findByIds(userIds)).map((user) => [user.id, user]));
      const readers: User[] = [];
      for (const id of new Set(userIds)) {
        const user = found.get(id);
        if (user?.state !== 'active') continue;
        if ((await database.rows(visibleProjects(principalOf(user), {}).where('p.id', projectId))).length > 0) readers.push(user);
      }
      return readers;
    },
    async visibleGroupIds(user, options = {}) {
      if (options.ids?.length === 0) return [];
      const query = database.table(NamespaceEntity, 'n').where('n.kind', 'group').select('n.id').orderBy('n.id');
      if (options.ids) query.whereIn('n.id', options.ids);
      if (options.underTraversalPath !== undefined) query.whereStartsWith('n.traversalPath', options.underTraversalPath);
      const rows = await database.rows(visibility.groups(query, user, options));
      return rows.map((row) => row.id);
    },
  };
}
