/**
 * Plan limits: each plan starts from the catalogue's defaults; administrators
 * override single limits per plan, and only the overrides are stored.
 */
import type { PlanLimitsService } from '../contracts.js';
import {
  DEFAULT_PLAN,
  defaultLimit,
  isPlanName,
  limitExceededMessage,
  PUBLIC_LIMIT_NAMES,
  PUBLIC_LIMITS,
  type PlanName,
  type PublicLimit,
} from './limit-catalogue.js';
import type { PlanLimitsStore } from './plan-limits-store.js';

/**
 * How long a process trusts the overrides it read. Enforcement reads limits on hot
 * paths (creating a variable), so they are not read on every request; a change made
 * through this process is seen at once, one made through another process within this.
 */
export const CACHE_TTL_MS = 5_000;

function requireKnown(name: string, plan: string): number {
  if (!isPlanName(plan)) throw new Error(`The plan '${plan}' does not exist`);
  const fallback = defaultLimit(name);
  if (fallback === undefined) throw new Error(`The limit '${name}' is undefined`);
  return fallback;
}

/** A limit of 0 (or below) is no limit; otherwise `currentCount` may not reach it. */
const reached = (limit: number, currentCount: number) => limit > 0 && currentCount >= limit;

export function createPlanLimitsService(store: PlanLimitsStore) {
  const cache = new Map<string, { values: Map<string, number>; readAt: number }>();

  async function fresh(plan: string) {
    const values = await store.overrides(plan);
    cache.set(plan, { values, readAt: Date.now() });
    return values;
  }

  async function overrides(plan: string) {
    const cached = cache.get(plan);
    return cached && Date.now() - cached.readAt < CACHE_TTL_MS ? cached.values : fresh(plan);
  }

  async function write(plan: string, values: Record<string, number>) {
    await store.write(plan, values);
    cache.delete(plan);
  }

  async function get(name: string, plan: string = DEFAULT_PLAN): Promise<number> {
    const fallback = requireKnown(name, plan);
    return (await overrides(plan)).get(name) ?? fallback;
  }

  return {
    get,
    exceeded: async (name: string, currentCount: number, plan: string = DEFAULT_PLAN) => reached(await get(name, plan), currentCount),
    async exceededMessage(name: string, currentCount: number, plan: string = DEFAULT_PLAN): Promise<string | null> {
      const limit = await get(name, plan);
      return reached(limit, currentCount) ? limitExceededMessage(name, limit) : null;
    },
    async set(name: string, value: number, plan: string = DEFAULT_PLAN) {
      requireKnown(name, plan);
      await write(plan, { [name]: value });
    },
    /** Every public limit of a plan, read fresh. */
    async publicLimits(plan: PlanName): Promise<Record<PublicLimit, number>> {
      const values = await fresh(plan);
      return Object.fromEntries(PUBLIC_LIMIT_NAMES.map((name) => [name, values.get(name) ?? PUBLIC_LIMITS[name]])) as Record<PublicLimit, number>;
    },
    update: (plan: PlanName, values: Partial<Record<PublicLimit, number>>) => write(plan, values as Record<string, number>),
  } satisfies PlanLimitsService & Record<string, unknown>;
}

export type PlanLimitsAdmin = ReturnType<typeof createPlanLimitsService>;
