import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A deploy key enabled on a project (GitLab's `deploy_keys_projects`), with its write access there. */
export const DeployKeyProjectEntity = defineEntity({
  name: 'DeployKeyProject',
  tableName: 'deploy_keys_projects',
  uniques: [{ properties: ['projectId', 'deployKeyId'] }],
  indexes: [{ properties: ['deployKeyId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    deployKeyId: p.integer(),
    projectId: p.integer(),
    canPush: p.boolean().default(false),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type DeployKeyProjectRow = InferEntity<typeof DeployKeyProjectEntity>;
