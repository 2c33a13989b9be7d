/**
 * What a user may do with one runner. Instance runners belong to administrators, group
 * runners to the group's Owners, project runners to Maintainers of their owner project;
 * Maintainers of other projects a runner is assigned to may read and share it.
 */
import type { Principal } from '@forgekit/kernel';
import { AccessLevel, type AccessService, type GroupService, type ProjectService } from '@forgekit/plugin-core/contracts';
import type { RunnerRow } from './runner-row.js';
import type { RunnerStore } from './runner-store.js';

export interface RunnerAbilities {
  /** Projects the runner is assigned to, in assignment order. */
  projectIds: number[];
  read: boolean;
  update: boolean;
  delete: boolean;
  assign: boolean;
  readJobs: boolean;
}

const ALL = { read: true, update: true, delete: true, assign: true, readJobs: true };
const NONE = { read: false, update: false, delete: false, assign: false, readJobs: false };

export function createRunnerPermissions(access: AccessService, projects: ProjectService, groups: GroupService, store: RunnerStore) {
  async function projectLevel(user: Principal, projectId: number): Promise<number> {
    const project = await projects.findById(projectId);
    return project ? (await access.projectAccess(user, project)).level : 0;
  }

  async function maintainsProjectUnder(user: Principal, traversalPath: string): Promise<boolean> {
    const ids = await access.visibleProjectIds(user, { underTraversalPath: traversalPath, minLevel: AccessLevel.MAINTAINER, limit: 1 });
    return ids.length > 0;
  }

  async function groupAbilities(user: Principal, runner: RunnerRow) {
    const group = runner.groupId ? await groups.findById(runner.groupId) : undefined;
    if (!group) return NONE;
    const { level } = await access.groupAccess(user, group);
    const owner = level >= AccessLevel.OWNER;
    const maintainer = level >= AccessLevel.MAINTAINER;
    const read = maintainer || (await maintainsProjectUnder(user, group.traversalPath));
    return { read, update: owner, delete: owner, assign: owner, readJobs: maintainer };
  }

  async function projectAbilities(user: Principal, runner: RunnerRow, projectIds: number[]) {
    const levels = new Map<number, number>();
    for (const id of projectIds) levels.set(id, await projectLevel(user, id));
    const ownerId = runner.ownerProjectId ?? projectIds[0];
    const ownsRunner = ownerId !== undefined && (levels.get(ownerId) ?? 0) >= AccessLevel.MAINTAINER;
    const maintainsAny = [...levels.values()].some((level) => level >= AccessLevel.MAINTAINER);
    const shared = projectIds.length > 1 && maintainsAny;
    const manage = ownsRunner || shared;
    return {
      read: maintainsAny,
      update: manage,
      delete: ownsRunner && projectIds.length <= 1,
      assign: manage,
      readJobs: manage,
    };
  }

  return {
    async of(user: Principal, runner: RunnerRow): Promise<RunnerAbilities> {
      const projectIds = runner.runnerType === 'project_type' ? await store.projectIdsOf(runner.id) : [];
      if (user.isAdmin) return { projectIds, ...ALL };
      if (runner.runnerType === 'instance_type') return { projectIds, ...NONE, read: true };
      if (runner.runnerType === 'group_type') return { projectIds, ...(await groupAbilities(user, runner)) };
      return { projectIds, ...(await projectAbilities(user, runner, projectIds)) };
    },
  };
}

export type RunnerPermissions = ReturnType<typeof createRunnerPermissions>;
