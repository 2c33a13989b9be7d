import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A project runner's assignment to a project. */
export const RunnerProjectEntity = defineEntity({
  name: 'CiRunnerProject',
  tableName: 'ci_runner_projects',
  uniques: [{ properties: ['runnerId', 'projectId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    runnerId: p.integer(),
    projectId: p.integer().index(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type RunnerProjectRow = InferEntity<typeof RunnerProjectEntity>;
