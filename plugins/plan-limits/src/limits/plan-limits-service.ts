/**
 * Plan limits: each plan starts from the catalogue's defaults; administrators
 * override single limits per plan, and only the overrides are stored.
 */
import type { Knex } from '@forgekit/kernel/orm';
import type { PlanLimitsService } from '../refs.js';
import { DEFAULT_PLAN, defaultLimit, isPlanName, limitExceededMessage, PUBLIC_LIMIT_NAMES, PUBLIC_LIMITS, type PlanName, type PublicLimit } from './limit-catalogue.js';

const TABLE = 'plan_limit_overrides';

/**
 * How long a process trusts the overrides it read. Enforcement reads limits on hot
 * paths (creating a variable), so they are not read on every request; a change made
 * through this process is seen at once, one made through another process within this.
 */
export const CACHE_TTL_MS = 5_000;

interface CachedPlan {
  values: Map<string, number>;
  readAt: number;
}

/** Per database, so a helper writing overrides can drop what the service cached. */
const caches = new WeakMap<Knex, Map<string, CachedPlan>>();

function cacheOf(db: Knex) {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

async function readOverrides(db: Knex, plan: string): Promise<Map<string, number>> {
  const rows: { name: string; value: number | string }[] = await db(TABLE).where('plan_name', plan).select('name', 'value');
  const values = new Map(rows.map((row) => [row.name, Number(row.value)]));
  cacheOf(db).set(plan, { values, readAt: Date.now() });
  return values;
}

async function cachedOverrides(db: Knex, plan: string): Promise<Map<string, number>> {
  const cached = cacheOf(db).get(plan);
  if (cached && Date.now() - cached.readAt < CACHE_TTL_MS) return cached.values;
  return readOverrides(db, plan);
}

/** Stores overrides for one plan (upsert) and drops this process's cached copy. */
export async function writeOverrides(db: Knex, plan: string, values: Record<string, number>) {
  const now = new Date();
  const rows = Object.entries(values).map(([name, value]) => ({ plan_name: plan, name, value, updated_at: now }));
  if (rows.length > 0) await db(TABLE).insert(rows).onConflict(['plan_name', 'name']).merge(['value', 'updated_at']);
  cacheOf(db).delete(plan);
}

/**
 * Sets one limit of a plan directly, including limits the API does not expose
 * (for example `project_ci_variables`): for hosts and tests.
 */
export async function setPlanLimit(db: Knex, name: string, value: number, plan: string = DEFAULT_PLAN) {
  requireKnown(name, plan);
  await writeOverrides(db, plan, { [name]: value });
}

function requireKnown(name: string, plan: string): number {
  if (!isPlanName(plan)) throw new Error(`The plan '${plan}' does not exist`);
  const fallback = defaultLimit(name);
  if (fallback === undefined) throw new Error(`The limit '${name}' is undefined`);
  return fallback;
}

export function createPlanLimitsService(db: Knex) {
  async function get(name: string, plan: string = DEFAULT_PLAN): Promise<number> {
    const fallback = requireKnown(name, plan);
    return (await cachedOverrides(db, plan)).get(name) ?? fallback;
  }

  /** A limit of 0 (or below) is no limit; otherwise `currentCount` may not reach it. */
  const reached = (limit: number, currentCount: number) => limit > 0 && currentCount >= limit;

  return {
    get,
    exceeded: async (name: string, currentCount: number, plan: string = DEFAULT_PLAN) => reached(await get(name, plan), currentCount),
    async exceededMessage(name: string, currentCount: number, plan: string = DEFAULT_PLAN): Promise<string | null> {
      const limit = await get(name, plan);
      return reached(limit, currentCount) ? limitExceededMessage(name, limit) : null;
    },
    /** Every public limit of a plan, read fresh. */
    async publicLimits(plan: PlanName): Promise<Record<PublicLimit, number>> {
      const overrides = await readOverrides(db, plan);
      return Object.fromEntries(PUBLIC_LIMIT_NAMES.map((name) => [name, overrides.get(name) ?? PUBLIC_LIMITS[name]])) as Record<PublicLimit, number>;
    },
    update: (plan: PlanName, values: Partial<Record<PublicLimit, number>>) => writeOverrides(db, plan, values as Record<string, number>),
  } satisfies PlanLimitsService & Record<string, unknown>;
}

export type PlanLimitsStore = ReturnType<typeof createPlanLimitsService>;
