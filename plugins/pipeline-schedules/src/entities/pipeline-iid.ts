import { defineEntity } from '@forgekit/kernel/orm';

export const PipelineIid = defineEntity({
  name: 'CiPipelineIid',
  tableName: 'ci_pipeline_iids',
  properties: (p) => ({
    projectId: p.integer().primary(),
    lastIid: p.integer(),
  }),
});
