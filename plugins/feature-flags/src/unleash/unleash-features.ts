/**
 * The features document Unleash SDKs poll: a project's flags as one environment (the
 * SDK's app name) sees them.
 */
import { toBool, type Knex } from '@forgekit/kernel/orm';
import { loadFlags } from '../flags/flag-loader.js';
import { USER_LIST_STRATEGY } from '../flags/strategy-rules.js';
import { scopeMatches } from '../shared/environment-scope.js';
import type { FlagRow, LoadedStrategy } from '../shared/rows.js';

export const UNLEASH_API_VERSION = 1;

/** A user list strategy reaches SDKs as `userWithId` with the list's ids; the rest pass through. */
function unleashStrategy({ row, userList }: LoadedStrategy) {
  if (row.name === USER_LIST_STRATEGY) return { name: 'userWithId', parameters: { userIds: userList?.user_xids ?? '' } };
  return { name: row.name, parameters: JSON.parse(row.parameters) as unknown };
}

/**
 * Flags (by id) with at least one strategy scoped to the environment, each with only
 * those strategies. Without an app name nothing is listed.
 */
export async function clientFeatures(db: Knex, projectId: number, appName: string | null | undefined) {
  if (!appName || appName.trim() === '') return { version: UNLEASH_API_VERSION, features: [] };
  const rows: FlagRow[] = await db<FlagRow>('feature_flags').where('project_id', projectId).orderBy('id');
  const features = [];
  for (const { flag, strategies } of await loadFlags(db, rows, projectId)) {
    const matching = strategies.filter(({ scopes }) => scopes.some((scope) => scopeMatches(scope.environment_scope, appName)));
    if (matching.length === 0) continue;
    features.push({
      name: flag.name,
      ...(flag.description === null ? {} : { description: flag.description }),
      enabled: toBool(flag.active),
      strategies: matching.map(unleashStrategy),
    });
  }
  return { version: UNLEASH_API_VERSION, features };
}
