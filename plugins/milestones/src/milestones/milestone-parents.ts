/** The projects and groups milestones belong to, as the core plugin tells them: web paths, ancestors, readability. */
import type { Principal } from '@forgekit/kernel';
import type { AccessService, GroupService, Namespace, ProjectService, Project } from '@forgekit/plugin-core/contracts';
import type { Milestone, MilestoneItemsParent } from '../contracts.js';
import type { Parent } from './milestone-store.js';

/** A project or group a route names, with what milestone rules need of it. */
export interface ParentInfo extends Parent {
  /** `group/project` or `group/subgroup`. */
  fullPath: string;
  /** The project's group, or the group itself. */
  groupId: number | null;
  /** The group ids from the root down to (and with) `groupId`. */
  groupLineage: number[];
}

/** A parent a route found for its caller, with that caller's access to it. */
export type FoundParent = ParentInfo & { items: MilestoneItemsParent };

/** What a milestone's `web_url` needs of its project or group. */
export type WebParent = Pick<ParentInfo, 'kind' | 'id' | 'fullPath'>;

const lineageOf = (traversalPath: string) => traversalPath.split('/').filter(Boolean).map(Number);

export function projectParent(project: Project): ParentInfo {
  const inGroup = project.namespace.kind === 'group';
  return {
    kind: 'project',
    id: project.id,
    fullPath: `${project.namespace.fullPath}/${project.path}`,
    groupId: inGroup ? project.namespaceId : null,
    groupLineage: inGroup ? lineageOf(project.namespace.traversalPath) : [],
  };
}

export function groupParent(group: Namespace): ParentInfo {
  return { kind: 'group', id: group.id, fullPath: group.fullPath, groupId: group.id, groupLineage: lineageOf(group.traversalPath) };
}

export function createParentDirectory(core: { access: AccessService; projects: ProjectService; groups: GroupService }, externalUrl: string) {
  const webUrl = (parent: WebParent, iid: number) =>
    parent.kind === 'project' ? `${externalUrl}/${parent.fullPath}/-/milestones/${iid}` : `${externalUrl}/groups/${parent.fullPath}/-/milestones/${iid}`;

  async function lookup(parent: Parent): Promise<ParentInfo | null> {
    if (parent.kind === 'project') {
      const project = await core.projects.findById(parent.id);
      return project ? projectParent(project) : null;
    }
    const group = await core.groups.findById(parent.id);
    return group ? groupParent(group) : null;
  }

  const parentOf = (milestone: Pick<Milestone, 'projectId' | 'groupId'>): Parent =>
    milestone.projectId !== null ? { kind: 'project', id: milestone.projectId } : { kind: 'group', id: milestone.groupId! };

  return {
    lookup,
    parentOf,
    /**
     * The milestones with their `webUrl`; `known` parents save a lookup. A milestone whose
     * project or group is gone (it is being deleted with it) is left out.
     */
    async withUrls(milestones: readonly Omit<Milestone, 'webUrl'>[], known: readonly WebParent[] = []): Promise<Milestone[]> {
      const parents = new Map<string, WebParent | null>(known.map((info) => [`${info.kind}:${info.id}`, info]));
      for (const milestone of milestones) {
        const parent = parentOf(milestone);
        const key = `${parent.kind}:${parent.id}`;
        if (!parents.has(key)) parents.set(key, await lookup(parent));
      }
      return milestones.flatMap((milestone) => {
        const parent = parentOf(milestone);
        const info = parents.get(`${parent.kind}:${parent.id}`);
        return info ? [{ ...milestone, webUrl: webUrl(info, milestone.iid) }] : [];
      });
    },
    async canRead(user: Principal | null, milestone: Milestone): Promise<boolean> {
      const parent = parentOf(milestone);
      if (parent.kind === 'project') {
        const project = await core.projects.findById(parent.id);
        return !!project && (await core.access.projectAccess(user, project)).canRead;
      }
      const group = await core.groups.findById(parent.id);
      return !!group && (await core.access.groupAccess(user, group)).canRead;
    },
    /** Among these groups, those at or below `ancestorId`. */
    async within(ancestorId: number, groupIds: readonly number[]): Promise<number[]> {
      const found: number[] = [];
      for (const id of groupIds) {
        if ((await lookup({ kind: 'group', id }))?.groupLineage.includes(ancestorId)) found.push(id);
      }
      return found;
    },
    /** The project's own direct-group id (a group milestone's title must differ from those of the group's own projects). */
    async projectGroupId(projectId: number): Promise<number | null> {
      const project = await core.projects.findById(projectId);
      return project && project.namespace.kind === 'group' ? project.namespaceId : null;
    },
  };
}

export type ParentDirectory = ReturnType<typeof createParentDirectory>;
