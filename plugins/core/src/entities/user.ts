import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export const UserEntity = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: (p) => ({
    id: p.integer().primary(),
    username: p.string().length(255).unique(),
    name: p.string().length(255),
    email: p.string().length(255).unique(),
    passwordHash: p.string().length(255).nullable(),
    state: p.string().length(32).default('active'),
    admin: p.boolean().default(false),
    external: p.boolean().default(false),
    bot: p.boolean().default(false),
    privateProfile: p.boolean().default(false),
    canCreateGroup: p.boolean().default(true),
    projectsLimit: p.integer().default(100000),
    bio: p.string().length(255).default(''),
    location: p.string().length(500).default(''),
    publicEmail: p.string().length(255).nullable(),
    websiteUrl: p.string().length(500).default(''),
    organization: p.string().length(500).default(''),
    jobTitle: p.string().length(255).default(''),
    pronouns: p.string().length(50).nullable(),
    note: p.string().length(1000).nullable(),
    namespaceId: p.integer().nullable(),
    createdById: p.integer().nullable(),
    confirmedAt: p.datetime().nullable(),
    /** `YYYY-MM-DD`. */
    lastActivityOn: p.string().length(10).nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    /** Raised by every update of the row: the version presented answers are cached by. */
    lockVersion: p.integer().version().default(0),
  }),
});

export type UserRow = InferEntity<typeof UserEntity>;
