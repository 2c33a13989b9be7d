import { defineEntity } from '@forgekit/kernel/orm';

export type RegistrationScope = 'instance' | 'group' | 'project';

/** One registration token per scope; `scope_id` is 0 for the instance. */
export const RunnerRegistrationTokenEntity = defineEntity({
  name: 'CiRunnerRegistrationToken',
  tableName: 'ci_runner_registration_tokens',
  uniques: [{ properties: ['scope', 'scopeId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    scope: p.string().$type<RegistrationScope>().length(16),
    scopeId: p.integer(),
    tokenDigest: p.string().length(64).unique(),
    createdAt: p.datetime(),
  }),
});
