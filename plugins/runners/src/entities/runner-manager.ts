import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A machine a runner runs on, as it reports itself (`system_xid`). */
export const RunnerManagerEntity = defineEntity({
  name: 'CiRunnerManager',
  tableName: 'ci_runner_managers',
  uniques: [{ properties: ['runnerId', 'systemXid'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    runnerId: p.integer(),
    systemXid: p.string().length(64),
    version: p.string().length(2048).nullable(),
    revision: p.string().length(255).nullable(),
    platform: p.string().length(255).nullable(),
    architecture: p.string().length(255).nullable(),
    ipAddress: p.string().length(1024).nullable(),
    contactedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type RunnerManagerRow = InferEntity<typeof RunnerManagerEntity>;
