import { defineEntity } from '@forgekit/kernel/orm';

export const Member = defineEntity({
  name: 'Member',
  tableName: 'members',
  properties: (p) => ({
    id: p.integer().primary(),
    sourceType: p.string().length(16),
    sourceId: p.integer(),
    userId: p.integer(),
    accessLevel: p.integer(),
    expiresAt: p.string().length(10).nullable(),
    createdById: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
