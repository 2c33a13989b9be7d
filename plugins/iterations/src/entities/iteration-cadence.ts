import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A group's iteration cadence; an automatic one schedules its own iterations. */
export const IterationCadenceEntity = defineEntity({
  name: 'IterationCadence',
  tableName: 'iteration_cadences',
  indexes: [{ properties: ['groupId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    groupId: p.integer(),
    title: p.string().length(255),
    description: p.text().nullable(),
    automatic: p.boolean().default(true),
    active: p.boolean().default(true),
    rollOver: p.boolean().default(false),
    /** `YYYY-MM-DD`; required when automatic. */
    startDate: p.date().nullable(),
    durationInWeeks: p.integer().nullable(),
    iterationsInAdvance: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type IterationCadenceRow = InferEntity<typeof IterationCadenceEntity>;
