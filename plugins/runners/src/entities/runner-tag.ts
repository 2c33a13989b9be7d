import { defineEntity } from '@forgekit/kernel/orm';

export const RunnerTagEntity = defineEntity({
  name: 'CiRunnerTag',
  tableName: 'ci_runner_tags',
  uniques: [{ properties: ['runnerId', 'name'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    runnerId: p.integer(),
    name: p.string().length(255).index(),
  }),
});
