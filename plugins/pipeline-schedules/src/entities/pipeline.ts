import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A pipeline a schedule (or a play) started; `ref` is the short name, `tag` tells branches from tags. */
export const PipelineEntity = defineEntity({
  name: 'CiPipeline',
  tableName: 'ci_pipelines',
  uniques: [{ properties: ['projectId', 'iid'] }],
  indexes: [{ properties: ['pipelineScheduleId'] }],
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

export type PipelineRow = InferEntity<typeof PipelineEntity>;
