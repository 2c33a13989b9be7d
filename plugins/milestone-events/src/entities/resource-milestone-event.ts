import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';
import type { MilestoneEventResourceType } from '../contracts.js';

export type MilestoneEventAction = 'add' | 'remove';

/** One milestone change of an issue or merge request (`resource_id` is the item's global id). */
export const ResourceMilestoneEventEntity = defineEntity({
  name: 'ResourceMilestoneEvent',
  tableName: 'resource_milestone_events',
  indexes: [{ properties: ['resourceType', 'resourceId'] }, { properties: ['milestoneId'] }, { properties: ['projectId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    resourceType: p.string().$type<MilestoneEventResourceType>().length(32),
    resourceId: p.integer(),
    projectId: p.integer(),
    userId: p.integer().nullable(),
    milestoneId: p.integer(),
    action: p.string().$type<MilestoneEventAction>().length(8),
    state: p.string().length(16),
    createdAt: p.datetime(),
  }),
});

export type ResourceMilestoneEventRow = InferEntity<typeof ResourceMilestoneEventEntity>;
