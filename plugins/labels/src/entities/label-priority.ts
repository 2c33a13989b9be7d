import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A label's priority in one project (group labels may have one per project). */
export const LabelPriorityEntity = defineEntity({
  name: 'LabelPriority',
  tableName: 'label_priorities',
  uniques: [{ properties: ['projectId', 'labelId'] }],
  indexes: [{ properties: ['labelId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    projectId: p.integer(),
    labelId: p.integer(),
    priority: p.integer(),
  }),
});

export type LabelPriorityRow = InferEntity<typeof LabelPriorityEntity>;
