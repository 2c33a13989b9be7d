/**
 * Plan limits on registered runners. As in GitLab, only runners created or contacted in
 * the past seven days count, so abandoned runners do not block new ones.
 */
import type { Database, Transaction } from '@forgekit/kernel';
import type { PlanLimitsService } from '@forgekit/plugin-plan-limits/contracts';
import { RunnerEntity } from '../entities/runner.js';
import { RunnerProjectEntity } from '../entities/runner-project.js';
import { staleDeadline } from '../runners/runner-status.js';

export interface LimitError {
  /** The key GitLab's validation error carries. */
  key: 'runner_projects.base' | 'runner_namespaces.base';
  message: string;
}

export type LimitScope = 'project' | 'group';

const LIMITS = {
  project: { name: 'ci_registered_project_runners', key: 'runner_projects.base' },
  group: { name: 'ci_registered_group_runners', key: 'runner_namespaces.base' },
} as const;

export function createRunnerLimits(database: Database, limits: PlanLimitsService) {
  function recentCount(scope: LimitScope, id: number, tx?: Transaction): Promise<number> {
    const deadline = staleDeadline();
    const query = database.table(RunnerEntity, 'r').where((q) => q.where('r.createdAt', '>', deadline).orWhere('r.contactedAt', '>', deadline));
    if (scope === 'project') query.whereIn('r.id', database.table(RunnerProjectEntity).select('runnerId').where('projectId', id));
    else query.where('r.groupId', id);
    return database.count(query, { tx });
  }

  return {
    /**
     * The error for one more runner in this project or group, or null when within the limit.
     * Inside a transaction (`tx`), it first takes the lock that serialises writes the limit counts.
     */
    async check(scope: LimitScope, id: number, tx?: Transaction): Promise<LimitError | null> {
      const { name, key } = LIMITS[scope];
      if (tx) await database.lock(tx, `runners:${scope}:${id}`);
      if (!(await limits.exceeded(name, await recentCount(scope, id, tx)))) return null;
      const limit = await limits.get(name);
      return { key, message: `Maximum number of ${name.replace(/_/g, ' ')} (${limit}) exceeded` };
    },
  };
}

export type RunnerLimits = ReturnType<typeof createRunnerLimits>;
