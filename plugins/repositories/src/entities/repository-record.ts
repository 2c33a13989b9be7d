import { defineEntity } from '@forgekit/kernel/orm';

/** A bare git repository: whose it is, the storage it lives on, and whether writes are paused. */
export const RepositoryRecord = defineEntity({
  name: 'RepositoryRecord',
  tableName: 'repositories',
  properties: (p) => ({
    id: p.integer().primary(),
    containerType: p.string().length(32),
    containerId: p.integer(),
    storage: p.string().length(255),
    diskPath: p.string().length(512),
    readOnly: p.boolean().default(false),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
