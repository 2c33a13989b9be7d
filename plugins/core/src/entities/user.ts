import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/**
 * Properties carry the column names: the rows other plugins receive through the core's
 * contract (`UserRow`, `ProjectWithNamespace` …) have always used them.
 */
export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: (p) => ({
    id: p.integer().primary(),
    username: p.string().length(255).unique(),
    name: p.string().length(255),
    email: p.string().length(255).unique(),
    password_hash: p.string().length(255).nullable(),
    state: p.string().length(32).default('active'),
    admin: p.boolean().default(false),
    external: p.boolean().default(false),
    bot: p.boolean().default(false),
    private_profile: p.boolean().default(false),
    can_create_group: p.boolean().default(true),
    projects_limit: p.integer().default(100000),
    bio: p.string().length(255).default(''),
    location: p.string().length(500).default(''),
    public_email: p.string().length(255).nullable(),
    website_url: p.string().length(500).default(''),
    organization: p.string().length(500).default(''),
    job_title: p.string().length(255).default(''),
    pronouns: p.string().length(50).nullable(),
    note: p.string().length(1000).nullable(),
    namespace_id: p.integer().nullable(),
    created_by_id: p.integer().nullable(),
    confirmed_at: p.datetime().nullable(),
    /** `YYYY-MM-DD`. */
    last_activity_on: p.string().length(10).nullable(),
    created_at: p.datetime(),
    updated_at: p.datetime(),
  }),
});

export type UserRow = InferEntity<typeof User>;
