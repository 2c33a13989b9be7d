import { defineEntity } from '@forgekit/kernel/orm';

export const CiRunner = defineEntity({
  name: 'CiRunner',
  tableName: 'ci_runners',
  properties: (p) => ({
    id: p.integer().primary(),
    runnerType: p.string().length(16),
    registrationType: p.string().length(32),
    tokenDigest: p.string().length(64).unique(),
    tokenExpiresAt: p.datetime().nullable(),
    name: p.string().length(256).nullable(),
    description: p.string().length(1024).nullable(),
    active: p.boolean().default(true),
    runUntagged: p.boolean().default(true),
    locked: p.boolean().default(false),
    accessLevel: p.string().length(16).default('not_protected'),
    maximumTimeout: p.integer().nullable(),
    maintenanceNote: p.string().length(1024).nullable(),
    contactedAt: p.datetime().nullable(),
    creatorId: p.integer().nullable(),
    groupId: p.integer().nullable(),
    ownerProjectId: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
