/** GitLab's runner entities: the list item (Runner) and RunnerDetails. */
import type { Principal } from '@forgekit/kernel';
import { toBool, toIso, type Knex } from '@forgekit/kernel/orm';
import { projectIdentity, userBasic, type AccessService, type UserRow, type UserService } from '@forgekit/plugin-core';
import type { RunnerAbilities } from './runner-permissions.js';
import type { RunnerRow } from './runner-row.js';
import { isOnline, restStatus } from './runner-status.js';
import type { RunnerStore } from './runner-store.js';

function runnerItem(runner: RunnerRow, creator: UserRow | undefined, externalUrl: string) {
  const active = toBool(runner.active);
  const body: Record<string, unknown> = {
    id: runner.id,
    description: runner.description,
    ip_address: null,
    active,
    paused: !active,
    is_shared: runner.runner_type === 'instance_type',
    runner_type: runner.runner_type,
    name: runner.name,
    online: isOnline(runner),
  };
  if (creator) body.created_by = userBasic(creator, externalUrl);
  body.created_at = toIso(runner.created_at);
  body.status = restStatus(runner);
  // No job ever runs on a runner yet, so none is executing.
  body.job_execution_status = 'idle';
  return body;
}

interface ProjectIdentityRow {
  id: number;
  description: string;
  name: string;
  path: string;
  created_at: unknown;
  ns_full_path: string;
  ns_full_name: string;
}

export function createRunnerPresenter(db: Knex, users: UserService, store: RunnerStore, access: AccessService) {
  async function creatorsOf(runners: readonly RunnerRow[]) {
    const ids = [...new Set(runners.map((runner) => runner.creator_id).filter((id): id is number => id !== null))];
    const creators = new Map<number, UserRow>();
    for (const id of ids) {
      const user = await users.findById(id);
      if (user) creators.set(id, user);
    }
    return creators;
  }

  /** The runner's projects the user is a member of (all of them for administrators). */
  async function visibleProjects(user: Principal, projectIds: number[]) {
    if (projectIds.length === 0) return [];
    const query = db('projects as p')
      .join('namespaces as n', 'n.id', 'p.namespace_id')
      .whereIn('p.id', projectIds)
      .select('p.id', 'p.description', 'p.name', 'p.path', 'p.created_at', 'n.full_path as ns_full_path', 'n.full_name as ns_full_name');
    const rows: ProjectIdentityRow[] = user.isAdmin ? await query : await access.visibleProjects(query, user, { membershipOnly: true });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return projectIds.flatMap((id) => (byId.has(id) ? [projectIdentity(byId.get(id)!)] : []));
  }

  async function visibleGroups(user: Principal, runner: RunnerRow, externalUrl: string) {
    if (!runner.group_id) return [];
    const query = db('namespaces as n').where('n.id', runner.group_id).where('n.kind', 'group').select('n.id', 'n.name', 'n.full_path');
    const rows: { id: number; name: string; full_path: string }[] = user.isAdmin
      ? await query
      : await access.visibleGroups(query, user, { membershipOnly: true });
    return rows.map((group) => ({ id: group.id, web_url: `${externalUrl}/groups/${group.full_path}`, name: group.name }));
  }

  return {
    async list(runners: readonly RunnerRow[], externalUrl: string) {
      const creators = await creatorsOf(runners);
      return runners.map((runner) => runnerItem(runner, runner.creator_id ? creators.get(runner.creator_id) : undefined, externalUrl));
    },
    async item(runner: RunnerRow, externalUrl: string) {
      return (await this.list([runner], externalUrl))[0]!;
    },
    async details(user: Principal, runner: RunnerRow, abilities: RunnerAbilities, externalUrl: string, includeProjects = true) {
      const manager = await store.latestManager(runner.id);
      const body: Record<string, unknown> = {
        ...(await this.item(runner, externalUrl)),
        tag_list: await store.tagsOf(runner.id),
        run_untagged: toBool(runner.run_untagged),
        locked: toBool(runner.locked),
        maximum_timeout: runner.maximum_timeout,
        access_level: runner.access_level,
        version: manager?.version ?? null,
        revision: manager?.revision ?? null,
        platform: manager?.platform ?? null,
        architecture: manager?.architecture ?? null,
        contacted_at: toIso(runner.contacted_at),
        maintenance_note: abilities.update ? runner.maintenance_note : null,
      };
      if (includeProjects) body.projects = await visibleProjects(user, abilities.projectIds);
      body.groups = await visibleGroups(user, runner, externalUrl);
      return body;
    },
  };
}

export type RunnerPresenter = ReturnType<typeof createRunnerPresenter>;
