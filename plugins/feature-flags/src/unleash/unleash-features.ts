/**
 * The features document Unleash SDKs poll: a project's flags as one environment (the
 * SDK's app name) sees them.
 */
import type { FlagStore, LoadedStrategy } from '../flags/flag-store.js';
import { USER_LIST_STRATEGY } from '../flags/strategy-rules.js';
import { scopeMatches } from '../shared/environment-scope.js';

export const UNLEASH_API_VERSION = 1;

/** A user list strategy reaches SDKs as `userWithId` with the list's ids; the rest pass through. */
function unleashStrategy({ row, userList }: LoadedStrategy) {
  if (row.name === USER_LIST_STRATEGY) return { name: 'userWithId', parameters: { userIds: userList?.userXids ?? '' } };
  return { name: row.name, parameters: row.parameters };
}

/**
 * Flags (by id) with at least one strategy scoped to the environment, each with only
 * those strategies. Without an app name nothing is listed.
 */
export async function clientFeatures(flags: FlagStore, projectId: number, appName: string | null | undefined) {
  if (!appName || appName.trim() === '') return { version: UNLEASH_API_VERSION, features: [] };
  const features = [];
  for (const { flag, strategies } of await flags.load(await flags.allOf(projectId), projectId)) {
    const matching = strategies.filter(({ scopes }) => scopes.some((scope) => scopeMatches(scope.environmentScope, appName)));
    if (matching.length === 0) continue;
    features.push({
      name: flag.name,
      ...(flag.description === null ? {} : { description: flag.description }),
      enabled: flag.active,
      strategies: matching.map(unleashStrategy),
    });
  }
  return { version: UNLEASH_API_VERSION, features };
}
