/**
 * The caller's effective access to projects and groups: admin, direct and inherited
 * membership, personal ownership and visibility. 404 for what the caller may not
 * see, 403 for what they see but may not do.
 */
import { forbidden, notFound, type Database, type Principal } from '@forgekit/kernel';
import { recordId, type Knex, type PreparedRead } from '@forgekit/kernel/orm';
import { Member } from '../entities/member.js';
import { Namespace, type NamespaceRow } from '../entities/namespace.js';
import { Project } from '../entities/project.js';
import { projectsWithNamespace, type ProjectWithNamespace } from '../projects/project-query.js';
import { AccessLevel, today, Visibility } from '../shared/levels.js';
import { traversalIds } from '../shared/traversal.js';

export interface ProjectAccess {
  project: ProjectWithNamespace;
  /** Effective level for permission checks (admins count as owners). */
  level: number;
  /** Direct project membership, or owner of a personal project. */
  projectLevel: number | null;
  /** Highest membership in the project's group or its ancestors. */
  groupLevel: number | null;
  canRead: boolean;
}

/** A user's levels on a project, as `permissions` shows them. */
export interface ProjectPermissions {
  /** Direct project membership, or owner of a personal project. */
  projectLevel: number | null;
  /** Highest membership in the project's group or its ancestors. */
  groupLevel: number | null;
}

export interface GroupAccess {
  group: NamespaceRow;
  level: number;
  /** Direct membership in this group. */
  directLevel: number | null;
  /** Highest membership in this group or its ancestors. */
  inheritedLevel: number | null;
  canRead: boolean;
}

/** Whom a visibility question is about: everything visible, or memberships only, at a least level. */
export interface VisibilityOptions {
  membershipOnly?: boolean;
  minLevel?: number;
}

const isInteger = (value: string) => /^\d+$/.test(value);

/** Looks an id up, unless no record can have it (then nothing is found). */
const withRecordId = async <T>(text: string, find: (id: number) => Promise<T | undefined>): Promise<T | undefined> => {
  const id = recordId(text);
  return id === null ? undefined : find(id);
};

/** A user's highest direct project level and highest level in the project's group or its ancestors. */
interface MemberLevels {
  member_project_level: number | null;
  member_group_level: number | null;
}
const NO_LEVELS: MemberLevels = { member_project_level: null, member_group_level: null };

/** A membership row `m` still in force on `date`. */
const active = (date: unknown) => (q: Knex.QueryBuilder) => q.whereNull('m.expires_at').orWhere('m.expires_at', '>', date as string);
/** The namespace `n` is the group `g` or lies below it. */
const WITHIN_GROUP = "n.traversal_path like g.traversal_path || '%'";

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
  const byId = database.legacy.prepareRows(Project, (p) => projectsWithNamespace(database).where('p.id', p.id)) as unknown as PreparedRead<
    ProjectWithNamespace,
    'id'
  >;
  const groups = () => database.legacy.from(Namespace).where('kind', 'group');
  // Every group route starts here: compiled once rather than built with knex per request.
  const groupById = database.legacy.prepareRows(Namespace, (p) => groups().where('id', p.id).limit(1));
  return {
    byId,
    async findProject(idOrPath: string): Promise<ProjectWithNamespace | undefined> {
      if (isInteger(idOrPath)) return withRecordId(idOrPath, (id) => byId.first({ id }));
      const slash = idOrPath.lastIndexOf('/');
      if (slash <= 0) return undefined;
      const query = projectsWithNamespace(database)
        .whereRaw('lower(n.full_path) = ?', [idOrPath.slice(0, slash).toLowerCase()])
        .whereRaw('lower(p.path) = ?', [idOrPath.slice(slash + 1).toLowerCase()]);
      return (await database.legacy.row(Project, query)) as ProjectWithNamespace | undefined;
    },
    async findGroup(idOrPath: string): Promise<NamespaceRow | undefined> {
      if (isInteger(idOrPath)) return withRecordId(idOrPath, (id) => groupById.first({ id }));
      return database.legacy.row(Namespace, groups().whereRaw('lower(full_path) = ?', [idOrPath.toLowerCase()]));
    },
  };
}

export type ProjectLookup = ReturnType<typeof createProjectLookup>;

/** Narrows queries over core's tables to what a user may see; core's list routes use it, other plugins ask for ids. */
export function createVisibility(database: Database) {
  /** A membership of the user, at `minLevel` or above, in the group `n` or one of its ancestors. */
  const groupMembership = (userId: number, minLevel: number) =>
    database.legacy
      .table(Member, 'm')
      .select('m.id')
      .join('namespaces as g', 'g.id', 'm.source_id')
      .where('m.user_id', userId)
      .where('m.source_type', 'Namespace')
      .where('m.access_level', '>=', minLevel)
      .whereRaw(WITHIN_GROUP)
      .where(active(today()));

  return {
    /** Narrows a query over `projects as p` / `namespaces as n` to what the user may see. */
    projects(query: Knex.QueryBuilder, user: Principal | null, options: VisibilityOptions = {}) {
      if (user?.isAdmin && !options.membershipOnly && !options.minLevel) return query;
      const minLevel = options.minLevel ?? AccessLevel.GUEST;
      return query.where((q) => {
        if (!options.membershipOnly && !options.minLevel) {
          q.orWhere('p.visibility_level', '>=', user && !user.external ? Visibility.internal : Visibility.public);
        }
        if (!user) return;
        q.orWhereExists(
          database.legacy
            .table(Member, 'm')
            .select('m.id')
            .where('m.user_id', user.id)
            .where('m.source_type', 'Project')
            .whereRaw('m.source_id = p.id')
            .where('m.access_level', '>=', minLevel)
            .where(active(today())),
        );
        q.orWhereExists(groupMembership(user.id, minLevel));
        q.orWhere((personal) => personal.where('n.kind', 'user').where('n.owner_id', user.id));
      });
    },
    /** Narrows a query over `namespaces as n` (groups) to what the user may see. */
    groups(query: Knex.QueryBuilder, user: Principal | null, options: VisibilityOptions = {}) {
      if (user?.isAdmin && !options.membershipOnly && !options.minLevel) return query;
      const minLevel = options.minLevel ?? AccessLevel.GUEST;
      return query.where((q) => {
        if (!options.membershipOnly && !options.minLevel) {
          q.orWhere('n.visibility_level', '>=', user && !user.external ? Visibility.internal : Visibility.public);
        }
        if (!user) return;
        q.orWhereExists(groupMembership(user.id, minLevel));
      });
    },
  };
}

export type VisibilityFilter = ReturnType<typeof createVisibility>;

export function createAccessService(database: Database, lookup: ProjectLookup, visibility: VisibilityFilter) {
  /** Membership lookups, prepared once per shape (how many projects and namespaces), as they run on most requests. */
  const membershipReads = new Map<string, PreparedRead<{ source_type: string; source_id: number; access_level: number }, string>>();
  function membershipRead(projects: number, namespaces: number) {
    const key = `${projects}:${namespaces}`;
    let read = membershipReads.get(key);
    if (!read) {
      const names = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}${index}`);
      read = database.legacy.prepareRows(Member, (p) =>
        database.legacy
          .table(Member, 'm')
          .select('m.source_type', 'm.source_id', 'm.access_level')
          .where('m.user_id', p.user)
          .where((sources) => {
            if (projects > 0)
              sources.orWhere((q) =>
                q.where('m.source_type', 'Project').whereIn(
                  'm.source_id',
                  names('project', projects).map((name) => p[name]!),
                ),
              );
            if (namespaces > 0)
              sources.orWhere((q) =>
                q.where('m.source_type', 'Namespace').whereIn(
                  'm.source_id',
                  names('namespace', namespaces).map((name) => p[name]!),
                ),
              );
          })
          .where(active(p.today)),
      );
      membershipReads.set(key, read);
    }
    return read;
  }

  /** Active memberships of a user in the given sources, as `Project:1` / `Namespace:5` → level. */
  async function membershipLevels(userId: number, projectIds: number[], namespaceIds: number[]) {
    const levels = new Map<string, number>();
    if (projectIds.length === 0 && namespaceIds.length === 0) return levels;
    const params: Record<string, unknown> = { user: userId, today: today() };
    for (const [index, id] of projectIds.entries()) params[`project${index}`] = id;
    for (const [index, id] of namespaceIds.entries()) params[`namespace${index}`] = id;
    for (const row of await membershipRead(projectIds.length, namespaceIds.length).all(params)) {
      levels.set(`${row.source_type}:${row.source_id}`, row.access_level);
    }
    return levels;
  }

  /** The project by id with the user's direct and group levels, in one statement (most requests name a project by id). */
  const projectByIdWithLevels = database.legacy.prepareRows(Project, (p) =>
    projectsWithNamespace(database)
      .select(
        database.legacy
          .table(Member, 'm')
          .max('m.access_level')
          .where('m.user_id', p.user)
          .where('m.source_type', 'Project')
          .whereRaw('m.source_id = p.id')
          .where(active(p.today))
          .as('member_project_level'),
      )
      .select(
        database.legacy
          .table(Member, 'm')
          .max('m.access_level')
          .join('namespaces as g', 'g.id', 'm.source_id')
          .where('m.user_id', p.user)
          .where('m.source_type', 'Namespace')
          .where('n.kind', 'group')
          .whereRaw(WITHIN_GROUP)
          .where(active(p.today))
          .as('member_group_level'),
      )
      .where('p.id', p.id),
  ) as unknown as PreparedRead<ProjectWithNamespace & MemberLevels, 'user' | 'today' | 'id'>;

  function accessFrom(user: Principal | null, project: ProjectWithNamespace, levels: MemberLevels): ProjectAccess {
    let projectLevel = levels.member_project_level ?? null;
    const groupLevel = levels.member_group_level ?? null;
    if (user && project.ns_kind === 'user' && project.ns_owner_id === user.id) projectLevel = AccessLevel.OWNER;
    const memberLevel = Math.max(projectLevel ?? 0, groupLevel ?? 0);
    const level = user?.isAdmin ? AccessLevel.OWNER : memberLevel;
    const canRead = !!user?.isAdmin || memberLevel >= AccessLevel.GUEST || visibleByLevel(project.visibility_level, user);
    return { project, level, projectLevel, groupLevel, canRead };
  }

  async function projectAccess(user: Principal | null, project: ProjectWithNamespace): Promise<ProjectAccess> {
    if (!user) return accessFrom(user, project, NO_LEVELS);
    const groupIds = project.ns_kind === 'group' ? traversalIds(project.ns_traversal_path) : [];
    const levels = await membershipLevels(user.id, [project.id], groupIds);
    return accessFrom(user, project, {
      member_project_level: levels.get(`Project:${project.id}`) ?? null,
      member_group_level: maxOf(groupIds.map((id) => levels.get(`Namespace:${id}`))),
    });
  }

  /**
   * What a route guard looked up for the caller's request, handed to the route's own
   * `requireProject` of the same project once, so the request reads the project once. Keyed
   * on the caller object, which the kernel makes anew for every request.
   */
  const lookedUp = new WeakMap<Principal, { idOrPath: string; access: ProjectAccess | null }>();

  async function lookUpForRequest(user: Principal | null, idOrPath: string): Promise<ProjectAccess | null> {
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

  /** A project by id or path with the caller's access. */
  async function findProjectAccess(user: Principal | null, idOrPath: string): Promise<ProjectAccess | null> {
    if (user && isInteger(idOrPath)) {
      const row = await withRecordId(idOrPath, (id) => projectByIdWithLevels.first({ user: user.id, today: today(), id }));
      if (!row) return null;
      const { member_project_level, member_group_level, ...project } = row;
      return accessFrom(user, project, { member_project_level, member_group_level });
    }
    const project = await lookup.findProject(idOrPath);
    return project ? projectAccess(user, project) : null;
  }

  async function groupAccess(user: Principal | null, group: NamespaceRow): Promise<GroupAccess> {
    let directLevel: number | null = null;
    let inheritedLevel: number | null = null;
    let viaDescendant = false;
    if (user) {
      const ids = traversalIds(group.traversal_path);
      const levels = await membershipLevels(user.id, [], ids);
      directLevel = levels.get(`Namespace:${group.id}`) ?? null;
      inheritedLevel = maxOf(ids.map((id) => levels.get(`Namespace:${id}`)));
      if (!user.isAdmin && (inheritedLevel ?? 0) < AccessLevel.GUEST && !visibleByLevel(group.visibility_level, user)) {
        viaDescendant = await memberOfDescendant(user.id, group);
      }
    }
    const level = user?.isAdmin ? AccessLevel.OWNER : (inheritedLevel ?? 0);
    const canRead = !!user?.isAdmin || level >= AccessLevel.GUEST || visibleByLevel(group.visibility_level, user) || viaDescendant;
    return { group, level, directLevel, inheritedLevel, canRead };
  }

  /** Members of a subgroup or project may see the groups above it. */
  async function memberOfDescendant(userId: number, group: NamespaceRow) {
    const like = `${group.traversal_path}%`;
    const viaGroup = database.legacy
      .table(Member, 'm')
      .join('namespaces as g', 'g.id', 'm.source_id')
      .where('m.user_id', userId)
      .where('m.source_type', 'Namespace')
      .where('g.traversal_path', 'like', like);
    if ((await database.legacy.count(viaGroup.limit(1))) > 0) return true;
    const viaProject = database.legacy
      .table(Member, 'm')
      .join('projects as p', 'p.id', 'm.source_id')
      .join('namespaces as n', 'n.id', 'p.namespace_id')
      .where('m.user_id', userId)
      .where('m.source_type', 'Project')
      .where('n.traversal_path', 'like', like);
    return (await database.legacy.count(viaProject.limit(1))) > 0;
  }

  /** `permissions` for a page of projects: direct and group levels of the user, in one query. */
  async function projectPermissions(user: Principal, projects: ProjectWithNamespace[]): Promise<Map<number, ProjectPermissions>> {
    const groupIds = [...new Set(projects.flatMap((p) => (p.ns_kind === 'group' ? traversalIds(p.ns_traversal_path) : [])))];
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
        const personal = project.ns_kind === 'user' && project.ns_owner_id === user.id;
        const projectLevel = personal ? AccessLevel.OWNER : (levels.get(`Project:${project.id}`) ?? null);
        const groupLevel = project.ns_kind === 'group' ? maxOf(traversalIds(project.ns_traversal_path).map((id) => levels.get(`Namespace:${id}`))) : null;
        return [project.id, { projectLevel, groupLevel }];
      }),
    );
  }

  return {
    projectAccess,
    groupAccess,
    projectPermissions,
    /** A project by id or path with the caller's access, or null; the same request's next `requireProject` of it reads no more. */
    lookUpForRequest,
    /** A project the caller can see, else `404 Project Not Found`; 403 below `minLevel`. */
    async requireProject(user: Principal | null, idOrPath: string, minLevel = 0): Promise<ProjectAccess> {
      const taken = takeLookedUp(user, idOrPath);
      const access = taken ? taken.access : await findProjectAccess(user, idOrPath);
      if (!access?.canRead) throw notFound('Project');
      if (access.level < minLevel) throw forbidden();
      return access;
    },
    /** A group the caller can see, else `404 Group Not Found`; 403 below `minLevel`. */
    async requireGroup(user: Principal | null, idOrPath: string, minLevel = 0): Promise<GroupAccess> {
      const group = await lookup.findGroup(idOrPath);
      if (!group) throw notFound('Group');
      const access = await groupAccess(user, group);
      if (!access.canRead) throw notFound('Group');
      if (access.level < minLevel) throw forbidden();
      return access;
    },
    /**
     * Ids of the projects the user may see (or is a member of at `minLevel`), optionally among
     * `ids` or under a group's traversal path. Other plugins ask this instead of joining core's tables.
     */
    async visibleProjectIds(
      user: Principal | null,
      options: VisibilityOptions & { ids?: readonly number[]; underTraversalPath?: string; limit?: number } = {},
    ): Promise<number[]> {
      if (options.ids?.length === 0) return [];
      const query = database.legacy.table(Project, 'p').join('namespaces as n', 'n.id', 'p.namespace_id').select('p.id').orderBy('p.id');
      if (options.ids) query.whereIn('p.id', options.ids);
      if (options.underTraversalPath !== undefined) query.where('n.traversal_path', 'like', `${options.underTraversalPath}%`);
      if (options.limit) query.limit(options.limit);
      const rows = await database.legacy.rows(Project, visibility.projects(query, user, options));
      return rows.map((row) => row.id);
    },
    /** Ids of the groups the user may see (or is a member of at `minLevel`), optionally among `ids` or under a traversal path. */
    async visibleGroupIds(
      user: Principal | null,
      options: VisibilityOptions & { ids?: readonly number[]; underTraversalPath?: string } = {},
    ): Promise<number[]> {
      if (options.ids?.length === 0) return [];
      const query = database.legacy.table(Namespace, 'n').where('n.kind', 'group').select('n.id').orderBy('n.id');
      if (options.ids) query.whereIn('n.id', options.ids);
      if (options.underTraversalPath !== undefined) query.where('n.traversal_path', 'like', `${options.underTraversalPath}%`);
      const rows = await database.legacy.rows(Namespace, visibility.groups(query, user, options));
      return rows.map((row) => row.id);
    },
  };
}

export type AccessService = ReturnType<typeof createAccessService>;
