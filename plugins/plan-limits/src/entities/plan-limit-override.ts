import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** One limit an administrator changed for one plan; limits without a row keep their default. */
export const PlanLimitOverrideEntity = defineEntity({
  name: 'PlanLimitOverride',
  tableName: 'plan_limit_overrides',
  properties: (p) => ({
    planName: p.string().length(64).primary(),
    name: p.string().length(128).primary(),
    value: p.bigint('number'),
    updatedAt: p.datetime(),
  }),
});

export type PlanLimitOverrideRow = InferEntity<typeof PlanLimitOverrideEntity>;
