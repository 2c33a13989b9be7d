import { defineEntity } from '@forgekit/kernel/orm';

export const Project = defineEntity({
  name: 'Project',
  tableName: 'projects',
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
    topics: p.text().default('[]'),
    settings: p.text().default('{}'),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    lastActivityAt: p.datetime(),
  }),
});
