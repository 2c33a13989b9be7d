import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

import type { StorageMoveContainerType } from '../contracts.js';

export type ContainerType = StorageMoveContainerType;

/** A move of a container's repositories (a project with its wiki, a snippet, a group wiki) to another storage. */
export const RepositoryStorageMoveEntity = defineEntity({
  name: 'RepositoryStorageMove',
  tableName: 'repository_storage_moves',
  indexes: [{ properties: ['containerType', 'containerId'] }, { properties: ['containerType', 'createdAt'] }, { properties: ['state'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    containerType: p.string().$type<ContainerType>().length(16),
    containerId: p.integer(),
    state: p.integer(),
    sourceStorageName: p.string().length(255),
    destinationStorageName: p.string().length(255),
    errorMessage: p.text().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type RepositoryStorageMoveRow = InferEntity<typeof RepositoryStorageMoveEntity>;
