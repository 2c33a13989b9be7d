import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A user's subscription to a label, everywhere (`project_id` 0) or within one project. */
export const LabelSubscriptionEntity = defineEntity({
  name: 'LabelSubscription',
  tableName: 'label_subscriptions',
  uniques: [{ properties: ['labelId', 'userId', 'projectId'] }],
  indexes: [{ properties: ['userId'] }, { properties: ['projectId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    labelId: p.integer(),
    userId: p.integer(),
    projectId: p.integer(),
    createdAt: p.datetime(),
  }),
});

export type LabelSubscriptionRow = InferEntity<typeof LabelSubscriptionEntity>;
