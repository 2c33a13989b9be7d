/** Stored overrides: read through the entity, written through the EntityManager. */
import type { Database } from '@forgekit/kernel';
import { PlanLimitOverride } from '../entities/plan-limit-override.js';

export function createPlanLimitsStore(database: Database) {
  const ofPlan = database.legacy.prepareRows(PlanLimitOverride, (p) => database.legacy.from(PlanLimitOverride).where('plan_name', p.plan));
  return {
    async overrides(plan: string): Promise<Map<string, number>> {
      return new Map((await ofPlan.all({ plan })).map((row) => [row.name, row.value]));
    },
    /** Stores the values of one plan, replacing what it had for them. */
    async write(plan: string, values: Record<string, number>) {
      const updatedAt = new Date();
      const rows = Object.entries(values).map(([name, value]) => ({ planName: plan, name, value, updatedAt }));
      if (rows.length > 0) await database.legacy.em().upsertMany(PlanLimitOverride, rows);
    },
  };
}

export type PlanLimitsStore = ReturnType<typeof createPlanLimitsStore>;
