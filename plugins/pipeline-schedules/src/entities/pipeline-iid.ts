import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** The last pipeline iid handed out per project. */
export const PipelineIidEntity = defineEntity({
  name: 'CiPipelineIid',
  tableName: 'ci_pipeline_iids',
  properties: (p) => ({
    projectId: p.integer().primary().autoincrement(false),
    lastIid: p.integer(),
  }),
});

export type PipelineIidRow = InferEntity<typeof PipelineIidEntity>;
