import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export const Member = defineEntity({
  name: 'Member',
  tableName: 'members',
  uniques: [{ properties: ['source_type', 'source_id', 'user_id'] }],
  indexes: [{ properties: ['user_id'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    /** `Project` or `Namespace`, as GitLab names member sources. */
    source_type: p.string().$type<'Project' | 'Namespace'>().length(16),
    source_id: p.integer(),
    user_id: p.integer(),
    access_level: p.integer(),
    /** `YYYY-MM-DD`. */
    expires_at: p.string().length(10).nullable(),
    created_by_id: p.integer().nullable(),
    created_at: p.datetime(),
    updated_at: p.datetime(),
  }),
});

export type MemberRow = InferEntity<typeof Member>;
