import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';
import type { RepositoryKind } from '../storage/storages.js';

/** A bare git repository: whose it is, the storage it lives on, and whether writes are paused. */
export const RepositoryEntity = defineEntity({
  name: 'Repository',
  tableName: 'repositories',
  uniques: [{ properties: ['containerType', 'containerId'] }],
  indexes: [{ properties: ['storage'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    containerType: p.string().$type<RepositoryKind>().length(32),
    containerId: p.integer(),
    storage: p.string().length(255),
    diskPath: p.string().length(512),
    readOnly: p.boolean().default(false),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type RepositoryRow = InferEntity<typeof RepositoryEntity>;
