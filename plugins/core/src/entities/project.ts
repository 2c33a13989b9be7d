import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

export const ProjectEntity = defineEntity({
  name: 'Project',
  tableName: 'projects',
  uniques: [{ properties: ['namespaceId', 'path'] }],
  indexes: [{ properties: ['repositoryStorage'] }, { properties: ['createdAt'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    name: p.string().length(255),
    path: p.string().length(255),
    namespaceId: p.integer(),
    description: p.string().length(2000).default(''),
    visibilityLevel: p.integer().default(0),
    defaultBranch: p.string().length(255).nullable(),
    repositoryStorage: p.string().length(255).default('default'),
    creatorId: p.integer().nullable(),
    archived: p.boolean().default(false),
    topics: p.json<string[]>().columnType('text').default('[]'),
    /** Project settings as JSON text (other plugins read it as text). */
    settings: p.text().default('{}'),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    lastActivityAt: p.datetime(),
    /** Raised by every update of the row: the version presented answers are cached by. */
    lockVersion: p.integer().version().default(0),
  }),
});

export type ProjectRow = InferEntity<typeof ProjectEntity>;
