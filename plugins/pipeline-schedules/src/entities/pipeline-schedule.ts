import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A pipeline schedule of a project; `ref` is always a full ref, `cronTimezone` exactly as sent. */
export const PipelineScheduleEntity = defineEntity({
  name: 'CiPipelineSchedule',
  tableName: 'ci_pipeline_schedules',
  indexes: [{ properties: ['projectId'] }, { properties: ['active', 'nextRunAt'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    projectId: p.integer(),
    ownerId: p.integer().nullable(),
    description: p.text(),
    ref: p.text(),
    cron: p.text(),
    cronTimezone: p.text(),
    nextRunAt: p.datetime(),
    active: p.boolean().default(true),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type PipelineScheduleRow = InferEntity<typeof PipelineScheduleEntity>;
