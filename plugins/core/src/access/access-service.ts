/**
 * The caller's effective access to projects and groups: admin, direct and inherited
 * membership, personal ownership and visibility. 404 for what the caller may not
 * see, 403 for what they see but may not do.
 */
import { forbidden, notFound, type Database, type PreparedQuery, type Principal } from '@forgekit/kernel';
import { recordId, type Knex } from '@forgekit/kernel/orm';
import { AccessLevel, today, Visibility } from '../shared/levels.js';
import { traversalIds, type NamespaceRow, type ProjectWithNamespace } from '../shared/rows.js';

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

/**
 * A project row with its namespace's columns, as one select list: knex passes a raw list
 * through instead of quoting every column again on every request.
 */
const PROJECT_COLUMNS =
  'p.*, n.name as ns_name, n.path as ns_path, n.kind as ns_kind, n.full_path as ns_full_path, n.full_name as ns_full_name, ' +
  'n.parent_id as ns_parent_id, n.traversal_path as ns_traversal_path, n.owner_id as ns_owner_id, n.visibility_level as ns_visibility_level';

export const projectsWithNamespace = (db: Knex) => db('projects as p').join('namespaces as n', 'n.id', 'p.namespace_id').select(db.raw(PROJECT_COLUMNS));

const isInteger = (value: string) => /^\d+$/.test(value);

/** Looks an id up, unless no record can have it (then nothing is found). */
const withRecordId = async <T>(text: string, find: (id: number) => Promise<T | undefined>): Promise<T | undefined> => {
  const id = recordId(text);
  return id === null ? undefined : find(id);
};

export async function findProjectRow(db: Knex, idOrPath: string): Promise<ProjectWithNamespace | undefined> {
  const query = projectsWithNamespace(db);
  if (isInteger(idOrPath)) return withRecordId(idOrPath, (id) => query.where('p.id', id).first());
  const slash = idOrPath.lastIndexOf('/');
  if (slash <= 0) return undefined;
  return query
    .whereRaw('lower(n.full_path) = ?', [idOrPath.slice(0, slash).toLowerCase()])
    .whereRaw('lower(p.path) = ?', [idOrPath.slice(slash + 1).toLowerCase()])
    .first();
}

export async function findGroupRow(db: Knex, idOrPath: string): Promise<NamespaceRow | undefined> {
  const query = db<NamespaceRow>('namespaces').where('kind', 'group');
  if (isInteger(idOrPath)) return withRecordId(idOrPath, (id) => query.where('id', id).first());
  return query.whereRaw('lower(full_path) = ?', [idOrPath.toLowerCase()]).first();
}

type MembershipRow = { source_type: string; source_id: number; access_level: number };

/** A user's highest direct project level and highest level in the project's group or its ancestors. */
interface MemberLevels {
  member_project_level: number | null;
  member_group_level: number | null;
}
const NO_LEVELS: MemberLevels = { member_project_level: null, member_group_level: null };

/** A membership row `m` still in force on the date bound to its `?`. */
const ACTIVE_MEMBERSHIP = '(m.expires_at is null or m.expires_at > ?)';
/** The namespace `n` is the group `g` or lies below it. */
const WITHIN_GROUP = "n.traversal_path like g.traversal_path || '%'";

const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(', ');

/** The membership lookup for a shape of sources; prepared once per shape, as it runs on most requests. */
function membershipSql(projects: number, namespaces: number) {
  const sources = [
    projects > 0 ? `(source_type = 'Project' and source_id in (${placeholders(projects)}))` : null,
    namespaces > 0 ? `(source_type = 'Namespace' and source_id in (${placeholders(namespaces)}))` : null,
  ].filter(Boolean);
  return `select source_type, source_id, access_level from members m where user_id = ? and (${sources.join(' or ')}) and ${ACTIVE_MEMBERSHIP}`;
}

const maxOf = (values: (number | undefined)[]) => {
  const present = values.filter((value): value is number => value !== undefined);
  return present.length > 0 ? Math.max(...present) : null;
};

function visibleByLevel(visibility: number, user: Principal | null) {
  if (visibility >= Visibility.public) return true;
  return visibility >= Visibility.internal && !!user && !user.external;
}

export function createAccessService(database: Database) {
  const db = database.knex;
  const prepared = new Map<string, PreparedQuery<MembershipRow>>();
  const projectById = database.prepare<ProjectWithNamespace>(
    `select ${PROJECT_COLUMNS} from projects p join namespaces n on n.id = p.namespace_id where p.id = ?`,
  );

  /** Active memberships of a user in the given sources, as `Project:1` / `Namespace:5` → level. */
  async function membershipLevels(userId: number, projectIds: number[], namespaceIds: number[]) {
    const levels = new Map<string, number>();
    if (projectIds.length === 0 && namespaceIds.length === 0) return levels;
    const sql = membershipSql(projectIds.length, namespaceIds.length);
    let query = prepared.get(sql);
    if (!query) prepared.set(sql, (query = database.prepare<MembershipRow>(sql)));
    for (const row of await query.all([userId, ...projectIds, ...namespaceIds, today()])) {
      levels.set(`${row.source_type}:${row.source_id}`, row.access_level);
    }
    return levels;
  }

  /** A membership of the user, at `minLevel` or above, in the group `n` or one of its ancestors. */
  const groupMembership = (userId: number, minLevel: number) =>
    db('members as m')
      .select(db.raw('1'))
      .join('namespaces as g', 'g.id', 'm.source_id')
      .where('m.user_id', userId)
      .where('m.source_type', 'Namespace')
      .where('m.access_level', '>=', minLevel)
      .whereRaw(WITHIN_GROUP)
      .whereRaw(ACTIVE_MEMBERSHIP, [today()]);

  /** The project by id with the user's direct and group levels, in one statement (most requests name a project by id). */
  const projectByIdWithLevels = database.prepare<ProjectWithNamespace & MemberLevels>(
    `select ${PROJECT_COLUMNS},
      (select max(m.access_level) from members m
        where m.user_id = ? and m.source_type = 'Project' and m.source_id = p.id and ${ACTIVE_MEMBERSHIP}) as member_project_level,
      (select max(m.access_level) from members m join namespaces g on g.id = m.source_id
        where m.user_id = ? and m.source_type = 'Namespace' and n.kind = 'group' and ${WITHIN_GROUP} and ${ACTIVE_MEMBERSHIP}) as member_group_level
     from projects p join namespaces n on n.id = p.namespace_id where p.id = ?`,
  );

  const groupById = database.prepare<NamespaceRow>(`select * from namespaces where kind = 'group' and id = ?`);
  /** A group by id (a prepared read: group routes name their group by id on most requests) or by path. */
  const findGroup = (idOrPath: string) => (isInteger(idOrPath) ? withRecordId(idOrPath, (id) => groupById.first([id])) : findGroupRow(db, idOrPath));

  const findProject = (idOrPath: string) => (isInteger(idOrPath) ? withRecordId(idOrPath, (id) => projectById.first([id])) : findProjectRow(db, idOrPath));

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

  /** A project by id or path with the caller's access. */
  async function findProjectAccess(user: Principal | null, idOrPath: string): Promise<ProjectAccess | null> {
    if (user && isInteger(idOrPath)) {
      const now = today();
      const row = await withRecordId(idOrPath, (id) => projectByIdWithLevels.first([user.id, now, user.id, now, id]));
      if (!row) return null;
      const { member_project_level, member_group_level, ...project } = row;
      return accessFrom(user, project, { member_project_level, member_group_level });
    }
    const project = await findProject(idOrPath);
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
    const viaGroup = await db('members as m')
      .join('namespaces as g', 'g.id', 'm.source_id')
      .where('m.user_id', userId)
      .where('m.source_type', 'Namespace')
      .where('g.traversal_path', 'like', like)
      .first('m.id');
    if (viaGroup) return true;
    const viaProject = await db('members as m')
      .join('projects as p', 'p.id', 'm.source_id')
      .join('namespaces as n', 'n.id', 'p.namespace_id')
      .where('m.user_id', userId)
      .where('m.source_type', 'Project')
      .where('n.traversal_path', 'like', like)
      .first('m.id');
    return !!viaProject;
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

  const service = {
    projectAccess,
    groupAccess,
    projectPermissions,
    /** A project the caller can see, else `404 Project Not Found`; 403 below `minLevel`. */
    async requireProject(user: Principal | null, idOrPath: string, minLevel = 0): Promise<ProjectAccess> {
      const access = await findProjectAccess(user, idOrPath);
      if (!access?.canRead) throw notFound('Project');
      if (access.level < minLevel) throw forbidden();
      return access;
    },
    /** A group the caller can see, else `404 Group Not Found`; 403 below `minLevel`. */
    async requireGroup(user: Principal | null, idOrPath: string, minLevel = 0): Promise<GroupAccess> {
      const group = await findGroup(idOrPath);
      if (!group) throw notFound('Group');
      const access = await groupAccess(user, group);
      if (!access.canRead) throw notFound('Group');
      if (access.level < minLevel) throw forbidden();
      return access;
    },
    /** Narrows a query over `projects as p` / `namespaces as n` to what the user may see. */
    visibleProjects(query: Knex.QueryBuilder, user: Principal | null, options: { membershipOnly?: boolean; minLevel?: number } = {}) {
      if (user?.isAdmin && !options.membershipOnly && !options.minLevel) return query;
      const minLevel = options.minLevel ?? AccessLevel.GUEST;
      return query.where((q) => {
        if (!options.membershipOnly && !options.minLevel) {
          q.orWhere('p.visibility_level', '>=', user && !user.external ? Visibility.internal : Visibility.public);
        }
        if (!user) return;
        q.orWhereExists(
          db('members as m')
            .select(db.raw('1'))
            .where('m.user_id', user.id)
            .where('m.source_type', 'Project')
            .whereRaw('m.source_id = p.id')
            .where('m.access_level', '>=', minLevel)
            .whereRaw(ACTIVE_MEMBERSHIP, [today()]),
        );
        q.orWhereExists(groupMembership(user.id, minLevel));
        q.orWhere((personal) => personal.where('n.kind', 'user').where('n.owner_id', user.id));
      });
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
      const query = db('projects as p').join('namespaces as n', 'n.id', 'p.namespace_id').select('p.id').orderBy('p.id');
      if (options.ids) query.whereIn('p.id', options.ids);
      if (options.underTraversalPath !== undefined) query.where('n.traversal_path', 'like', `${options.underTraversalPath}%`);
      if (options.limit) query.limit(options.limit);
      const rows: { id: number }[] = await service.visibleProjects(query, user, options);
      return rows.map((row) => Number(row.id));
    },
    /** Ids of the groups the user may see (or is a member of at `minLevel`), optionally among `ids` or under a traversal path. */
    async visibleGroupIds(
      user: Principal | null,
      options: VisibilityOptions & { ids?: readonly number[]; underTraversalPath?: string } = {},
    ): Promise<number[]> {
      if (options.ids?.length === 0) return [];
      const query = db('namespaces as n').where('n.kind', 'group').select('n.id').orderBy('n.id');
      if (options.ids) query.whereIn('n.id', options.ids);
      if (options.underTraversalPath !== undefined) query.where('n.traversal_path', 'like', `${options.underTraversalPath}%`);
      const rows: { id: number }[] = await service.visibleGroups(query, user, options);
      return rows.map((row) => Number(row.id));
    },
    /** Narrows a query over `namespaces as n` (groups) to what the user may see. */
    visibleGroups(query: Knex.QueryBuilder, user: Principal | null, options: { membershipOnly?: boolean; minLevel?: number } = {}) {
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
  return service;
}

export type AccessService = ReturnType<typeof createAccessService>;
