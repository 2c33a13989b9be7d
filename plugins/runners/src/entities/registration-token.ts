import { defineEntity } from '@forgekit/kernel/orm';

export const CiRunnerRegistrationToken = defineEntity({
  name: 'CiRunnerRegistrationToken',
  tableName: 'ci_runner_registration_tokens',
  properties: (p) => ({
    id: p.integer().primary(),
    scope: p.string().length(16),
    scopeId: p.integer(),
    tokenDigest: p.string().length(64).unique(),
    createdAt: p.datetime(),
  }),
});
