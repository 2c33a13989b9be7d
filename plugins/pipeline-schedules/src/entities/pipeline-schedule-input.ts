import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A schedule input: `value` is a string, number, boolean or array, kept as JSON text. */
export const PipelineScheduleInputEntity = defineEntity({
  name: 'CiPipelineScheduleInput',
  tableName: 'ci_pipeline_schedule_inputs',
  uniques: [{ properties: ['pipelineScheduleId', 'name'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    pipelineScheduleId: p.integer(),
    name: p.string().length(255),
    value: p.json<unknown>().columnType('text'),
  }),
});

export type PipelineScheduleInputRow = InferEntity<typeof PipelineScheduleInputEntity>;
