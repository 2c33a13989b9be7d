import { defineEntity } from '@forgekit/kernel/orm';

/** A user's personal namespace or a group. */
export const Namespace = defineEntity({
  name: 'Namespace',
  tableName: 'namespaces',
  properties: (p) => ({
    id: p.integer().primary(),
    name: p.string().length(255),
    path: p.string().length(255),
    kind: p.string().length(16),
    parentId: p.integer().nullable(),
    fullPath: p.string().length(1024).unique(),
    fullName: p.string().length(2048),
    traversalPath: p.string().length(1024),
    ownerId: p.integer().nullable(),
    visibilityLevel: p.integer().default(0),
    description: p.string().length(2000).default(''),
    settings: p.text().default('{}'),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});
