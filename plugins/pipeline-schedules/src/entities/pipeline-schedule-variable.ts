import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export type ScheduleVariableType = 'env_var' | 'file';

/** A variable a schedule passes to the pipelines it starts. */
export const PipelineScheduleVariableEntity = defineEntity({
  name: 'CiPipelineScheduleVariable',
  tableName: 'ci_pipeline_schedule_variables',
  uniques: [{ properties: ['pipelineScheduleId', 'key'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    pipelineScheduleId: p.integer(),
    key: p.string().length(255),
    value: p.text(),
    variableType: p.string().$type<ScheduleVariableType>().length(16).default('env_var'),
    raw: p.boolean().default(false),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type PipelineScheduleVariableRow = InferEntity<typeof PipelineScheduleVariableEntity>;
