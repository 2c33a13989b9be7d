import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** An iteration of a cadence; `iid` counts per group, `sequence` orders a cadence's iterations by date. */
export const IterationEntity = defineEntity({
  name: 'Iteration',
  tableName: 'iterations',
  uniques: [{ properties: ['groupId', 'iid'] }, { properties: ['cadenceId', 'title'] }],
  indexes: [{ properties: ['cadenceId', 'startDate'] }, { properties: ['groupId', 'dueDate'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    iid: p.integer(),
    sequence: p.integer(),
    groupId: p.integer(),
    cadenceId: p.integer(),
    /** Null for iterations an automatic cadence scheduled. */
    title: p.string().length(255).nullable(),
    description: p.text().nullable(),
    startDate: p.date(),
    dueDate: p.date(),
    /** When the background job saw the due date pass (or at creation, for an iteration already past). */
    closedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type IterationRow = InferEntity<typeof IterationEntity>;
