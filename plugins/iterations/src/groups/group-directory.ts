/**
 * The groups an iteration list spans, through core's access contract only: a group's
 * ancestors and descendants the caller may read, and full paths for web URLs.
 */
import { ApiError, type Principal } from '@forgekit/kernel';
import type { AccessService, GroupService, Namespace, ProjectService, Project } from '@forgekit/plugin-core/contracts';

export interface IterationGroup {
  id: number;
  fullPath: string;
  /** Own id last: `[root, …, parent, id]`. */
  lineage: number[];
}

const lineageOf = (traversalPath: string) => traversalPath.split('/').filter(Boolean).map(Number);

const asGroup = (row: Namespace): IterationGroup => ({ id: row.id, fullPath: row.fullPath, lineage: lineageOf(row.traversalPath) });

/** A project's group, or null for a personal (or missing) project. */
const groupOfProject = (project: Project | undefined): IterationGroup | null =>
  project?.namespace.kind === 'group'
    ? { id: project.namespaceId, fullPath: project.namespace.fullPath, lineage: lineageOf(project.namespace.traversalPath) }
    : null;

export function createGroupDirectory(access: AccessService, projects: ProjectService, groups: GroupService) {
  /** The group as `user` may read it, or null (not found, or hidden from the user). */
  async function readable(user: Principal | null, id: number): Promise<IterationGroup | null> {
    try {
      return asGroup((await access.requireGroup(user, String(id))).group);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return null;
      throw error;
    }
  }

  return {
    /** The group by id or path, for a caller who may see it (`404 Group Not Found`) at `minLevel` or above (403). */
    async require(user: Principal | null, idOrPath: string, minLevel = 0): Promise<IterationGroup> {
      return asGroup((await access.requireGroup(user, idOrPath, minLevel)).group);
    },
    readable,
    /** The project's group, or null for a personal project; `404 Project Not Found` when the caller may not see it. */
    async ofProject(user: Principal | null, idOrPath: string): Promise<IterationGroup | null> {
      return groupOfProject((await access.requireProject(user, idOrPath)).project);
    },
    /** The lineage of a project's group (root first), or null for a personal or missing project. */
    projectLineage: async (projectId: number) => groupOfProject(await projects.findById(projectId)),
    /** Full paths of groups by id, for web URLs. */
    async fullPaths(ids: readonly number[]): Promise<Map<number, string>> {
      const found = await Promise.all([...new Set(ids)].map((id) => groups.findById(id)));
      return new Map(found.filter((group) => group !== undefined).map((group) => [group.id, group.fullPath]));
    },
  };
}

export type GroupDirectory = ReturnType<typeof createGroupDirectory>;
