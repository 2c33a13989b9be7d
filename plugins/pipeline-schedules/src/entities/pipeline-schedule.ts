import { defineEntity } from '@forgekit/kernel/orm';

export const PipelineSchedule = defineEntity({
  name: 'CiPipelineSchedule',
  tableName: 'ci_pipeline_schedules',
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
