import { defineEntity } from '@forgekit/kernel/orm';

export const Pipeline = defineEntity({
  name: 'CiPipeline',
  tableName: 'ci_pipelines',
  properties: (p) => ({
    id: p.integer().primary(),
    projectId: p.integer(),
    iid: p.integer(),
    pipelineScheduleId: p.integer().nullable(),
    userId: p.integer().nullable(),
    status: p.string().length(32),
    source: p.string().length(32),
    ref: p.text(),
    tag: p.boolean().default(false),
    sha: p.string().length(64).nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
