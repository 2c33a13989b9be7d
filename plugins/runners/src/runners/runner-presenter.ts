/** GitLab's runner entities: the list item (Runner) and RunnerDetails. */
import type { Principal } from '@forgekit/kernel';
import { projectIdentity, userBasic } from '@forgekit/plugin-core/contracts';
import type { AccessService, GroupService, ProjectService, User, UserService } from '@forgekit/plugin-core/contracts';
import type { RunnerAbilities } from './runner-permissions.js';
import type { RunnerRow } from './runner-row.js';
import { isOnline, restStatus } from './runner-status.js';
import type { RunnerStore } from './runner-store.js';

function runnerItem(runner: RunnerRow, creator: User | undefined, externalUrl: string) {
  const body: Record<string, unknown> = {
    id: runner.id,
    description: runner.description,
    // Deprecated; GitLab's API documentation gives an empty string from 17.0 on.
    ip_address: '',
    active: runner.active,
    paused: !runner.active,
    is_shared: runner.runnerType === 'instance_type',
    runner_type: runner.runnerType,
    name: runner.name,
    online: isOnline(runner),
  };
  if (creator) body.created_by = userBasic(creator, externalUrl);
  body.created_at = runner.createdAt.toISOString();
  body.status = restStatus(runner);
  // No job ever runs on a runner yet, so none is executing.
  body.job_execution_status = 'idle';
  return body;
}

interface CoreServices {
  users: UserService;
  projects: ProjectService;
  groups: GroupService;
  access: AccessService;
}

export function createRunnerPresenter(store: RunnerStore, { users, projects, groups, access }: CoreServices) {
  async function creatorsOf(runners: readonly RunnerRow[]) {
    const ids = [...new Set(runners.map((runner) => runner.creatorId).filter((id): id is number => id !== null && id !== undefined))];
    const creators = new Map<number, User>();
    for (const id of ids) {
      const user = await users.findById(id);
      if (user) creators.set(id, user);
    }
    return creators;
  }

  /** The runner's projects the user is a member of (all of them for administrators). */
  async function visibleProjects(user: Principal, projectIds: number[]) {
    const visible = user.isAdmin ? projectIds : await access.visibleProjectIds(user, { ids: projectIds, membershipOnly: true });
    const shown = [];
    for (const id of projectIds) {
      const project = visible.includes(id) ? await projects.findById(id) : undefined;
      if (project) shown.push(projectIdentity(project));
    }
    return shown;
  }

  async function visibleGroups(user: Principal, runner: RunnerRow, externalUrl: string) {
    if (!runner.groupId) return [];
    const group = await groups.findById(runner.groupId);
    if (!group) return [];
    if (!user.isAdmin && (await access.visibleGroupIds(user, { ids: [group.id], membershipOnly: true })).length === 0) return [];
    return [{ id: group.id, web_url: `${externalUrl}/groups/${group.fullPath}`, name: group.name }];
  }

  return {
    async list(runners: readonly RunnerRow[], externalUrl: string) {
      const creators = await creatorsOf(runners);
      return runners.map((runner) => runnerItem(runner, runner.creatorId ? creators.get(runner.creatorId) : undefined, externalUrl));
    },
    async item(runner: RunnerRow, externalUrl: string) {
      return (await this.list([runner], externalUrl))[0]!;
    },
    async details(user: Principal, runner: RunnerRow, abilities: RunnerAbilities, externalUrl: string, includeProjects = true) {
      const manager = await store.latestManager(runner.id);
      const body: Record<string, unknown> = {
        ...(await this.item(runner, externalUrl)),
        tag_list: await store.tagsOf(runner.id),
        run_untagged: runner.runUntagged,
        locked: runner.locked,
        maximum_timeout: runner.maximumTimeout,
        access_level: runner.accessLevel,
        version: manager?.version ?? null,
        revision: manager?.revision ?? null,
        platform: manager?.platform ?? null,
        architecture: manager?.architecture ?? null,
        contacted_at: runner.contactedAt?.toISOString() ?? null,
        maintenance_note: abilities.update ? runner.maintenanceNote : null,
      };
      if (includeProjects) body.projects = await visibleProjects(user, abilities.projectIds);
      body.groups = await visibleGroups(user, runner, externalUrl);
      return body;
    },
  };
}

export type RunnerPresenter = ReturnType<typeof createRunnerPresenter>;
