/** Stored overrides, read and written by property. */
import type { Database } from '@forgekit/kernel';
import { PlanLimitOverrideEntity } from '../entities/plan-limit-override.js';

export function createPlanLimitsStore(database: Database) {
  const ofPlan = database.prepareRows((p) => database.from(PlanLimitOverrideEntity).where('planName', p.plan));
  return {
    async overrides(plan: string): Promise<Map<string, number>> {
      return new Map((await ofPlan.all({ plan })).map((row) => [row.name, row.value]));
    },
    /** Stores the values of one plan, replacing what it had for them. */
    async write(plan: string, values: Record<string, number>) {
      const updatedAt = new Date();
      const rows = Object.entries(values).map(([name, value]) => ({ planName: plan, name, value, updatedAt }));
      await database.upsertMany(PlanLimitOverrideEntity, rows);
    },
  };
}

export type PlanLimitsStore = ReturnType<typeof createPlanLimitsStore>;
