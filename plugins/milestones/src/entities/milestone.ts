import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export type MilestoneState = 'active' | 'closed';

/** A project milestone (`project_id`) or a group milestone (`group_id`); `iid` counts per project or per group. */
export const MilestoneEntity = defineEntity({
  name: 'Milestone',
  tableName: 'milestones',
  uniques: [{ properties: ['projectId', 'iid'] }, { properties: ['groupId', 'iid'] }],
  indexes: [{ properties: ['title'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    iid: p.integer(),
    projectId: p.integer().nullable(),
    groupId: p.integer().nullable(),
    title: p.string().length(255),
    description: p.text().nullable(),
    state: p.string().$type<MilestoneState>().length(16).default('active'),
    dueDate: p.date().nullable(),
    startDate: p.date().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type MilestoneRow = InferEntity<typeof MilestoneEntity>;
