import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A user's personal namespace or a group. */
export const NamespaceEntity = defineEntity({
  name: 'Namespace',
  tableName: 'namespaces',
  indexes: [{ properties: ['parentId'] }, { properties: ['traversalPath'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    name: p.string().length(255),
    path: p.string().length(255),
    kind: p.string().$type<'user' | 'group'>().length(16),
    parentId: p.integer().nullable(),
    fullPath: p.string().length(1024).unique(),
    /** `Parent Name / Child Name`, kept beside fullPath. */
    fullName: p.string().length(2048),
    /** `/1/5/9/`: the ids from the root down, so descendants match `LIKE '/1/5/%'`. */
    traversalPath: p.string().length(1024),
    ownerId: p.integer().nullable(),
    visibilityLevel: p.integer().default(0),
    description: p.string().length(2000).default(''),
    /** Group settings as JSON text. */
    settings: p.text().default('{}'),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    /** Raised by every update of the row: the version presented answers are cached by. */
    lockVersion: p.integer().version().default(0),
  }),
});

export type NamespaceRow = InferEntity<typeof NamespaceEntity>;
