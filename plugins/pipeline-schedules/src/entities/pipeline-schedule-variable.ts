import { defineEntity } from '@forgekit/kernel/orm';

export const PipelineScheduleVariable = defineEntity({
  name: 'CiPipelineScheduleVariable',
  tableName: 'ci_pipeline_schedule_variables',
  properties: (p) => ({
    id: p.integer().primary(),
    pipelineScheduleId: p.integer(),
    key: p.string().length(255),
    value: p.text(),
    variableType: p.string().length(16).default('env_var'),
    raw: p.boolean().default(false),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
