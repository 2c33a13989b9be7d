import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/** A user's personal namespace or a group. */
export const Namespace = defineEntity({
  name: 'Namespace',
  tableName: 'namespaces',
  indexes: [{ properties: ['parent_id'] }, { properties: ['traversal_path'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    name: p.string().length(255),
    path: p.string().length(255),
    kind: p.string().$type<'user' | 'group'>().length(16),
    parent_id: p.integer().nullable(),
    full_path: p.string().length(1024).unique(),
    /** `Parent Name / Child Name`, kept beside full_path. */
    full_name: p.string().length(2048),
    /** `/1/5/9/`: the ids from the root down, so descendants match `LIKE '/1/5/%'`. */
    traversal_path: p.string().length(1024),
    owner_id: p.integer().nullable(),
    visibility_level: p.integer().default(0),
    description: p.string().length(2000).default(''),
    /** Group settings as JSON text. */
    settings: p.text().default('{}'),
    created_at: p.datetime(),
    updated_at: p.datetime(),
  }),
});

export type NamespaceRow = InferEntity<typeof Namespace>;
