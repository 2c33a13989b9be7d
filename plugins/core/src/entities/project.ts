import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export const Project = defineEntity({
  name: 'Project',
  tableName: 'projects',
  uniques: [{ properties: ['namespace_id', 'path'] }],
  indexes: [{ properties: ['repository_storage'] }, { properties: ['created_at'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    name: p.string().length(255),
    path: p.string().length(255),
    namespace_id: p.integer(),
    description: p.string().length(2000).default(''),
    visibility_level: p.integer().default(0),
    default_branch: p.string().length(255).nullable(),
    repository_storage: p.string().length(255).default('default'),
    creator_id: p.integer().nullable(),
    archived: p.boolean().default(false),
    topics: p.json<string[]>().columnType('text').default('[]'),
    /** Project settings as JSON text (other plugins read it as text). */
    settings: p.text().default('{}'),
    created_at: p.datetime(),
    updated_at: p.datetime(),
    last_activity_at: p.datetime(),
  }),
});

export type ProjectRow = InferEntity<typeof Project>;
