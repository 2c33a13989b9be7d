import { defineEntity } from '@forgekit/kernel/orm';

export const PipelineScheduleInput = defineEntity({
  name: 'CiPipelineScheduleInput',
  tableName: 'ci_pipeline_schedule_inputs',
  properties: (p) => ({
    id: p.integer().primary(),
    pipelineScheduleId: p.integer(),
    name: p.string().length(255),
    value: p.text(),
  }),
});
