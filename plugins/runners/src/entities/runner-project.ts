import { defineEntity } from '@forgekit/kernel/orm';

export const CiRunnerProject = defineEntity({
  name: 'CiRunnerProject',
  tableName: 'ci_runner_projects',
  properties: (p) => ({
    id: p.integer().primary(),
    runnerId: p.integer(),
    projectId: p.integer(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
