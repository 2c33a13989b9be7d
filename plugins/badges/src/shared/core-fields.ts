/** Every read of a field of core's objects (projects, groups), in one place. */
import type { Principal } from '@forgekit/kernel';
import type { AccessService, GroupAccess, GroupService, ProjectAccess, Project, ProjectService } from '@forgekit/plugin-core/contracts';

/** What badges need of a project: its names and paths for placeholders, and the groups above it. */
export interface BadgeProject {
  id: number;
  /** The display name (`%{project_title}`). */
  name: string;
  /** The path (`%{project_name}`). */
  path: string;
  fullPath: string;
  namespaceFullPath: string;
  defaultBranch: string | null;
  /** The groups the project lies in, top-level first; empty for a personal project. */
  groupIds: number[];
  /** The top-level group's name when the project's own group is top-level, else null (looked up when needed). */
  topGroupName: string | null;
}

/** What badges need of a group: its id, and where its projects lie. */
export interface BadgeGroup {
  id: number;
  traversalPath: string;
}

/** `/1/5/9/` → [1, 5, 9]. */
const idsOf = (traversalPath: string) => traversalPath.split('/').filter(Boolean).map(Number);

export function badgeProjectOf(project: Project): BadgeProject {
  const { namespace } = project;
  const inGroup = namespace.kind === 'group';
  return {
    id: project.id,
    name: project.name,
    path: project.path,
    fullPath: `${namespace.fullPath}/${project.path}`,
    namespaceFullPath: namespace.fullPath,
    defaultBranch: project.defaultBranch ?? null,
    groupIds: inGroup ? idsOf(namespace.traversalPath) : [],
    topGroupName: inGroup && namespace.parentId === null ? namespace.name : null,
  };
}

export const projectOfAccess = (access: ProjectAccess): BadgeProject => badgeProjectOf(access.project);
export const groupOfAccess = (access: GroupAccess): BadgeGroup => ({ id: access.group.id, traversalPath: access.group.traversalPath });

/** The name of the project's top-level group, or null for a personal project. */
export async function topGroupNameOf(groups: GroupService, project: BadgeProject): Promise<string | null> {
  if (project.topGroupName !== null || project.groupIds.length === 0) return project.topGroupName;
  const top = await groups.findById(project.groupIds[0]!);
  return top?.name ?? null;
}

/** The group's first project (by creation, subgroups included) the caller can see, or null. */
export async function firstVisibleProjectOf(
  access: AccessService,
  projects: ProjectService,
  user: Principal | null,
  group: BadgeGroup,
): Promise<BadgeProject | null> {
  const [id] = await access.visibleProjectIds(user, { underTraversalPath: group.traversalPath, limit: 1 });
  if (id === undefined) return null;
  const project = await projects.findById(id);
  return project ? badgeProjectOf(project) : null;
}
