import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/**
 * A snippet, personal (`projectId` null) or of a project. Its files live in its git
 * repository; `fileName` keeps the first file's path so lists need no git call.
 */
export const SnippetEntity = defineEntity({
  name: 'Snippet',
  tableName: 'snippets',
  indexes: [{ properties: ['authorId'] }, { properties: ['projectId'] }, { properties: ['visibilityLevel'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    title: p.string().length(255),
    description: p.text().nullable(),
    visibilityLevel: p.integer(),
    authorId: p.integer(),
    projectId: p.integer().nullable(),
    fileName: p.string().length(4096).nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type SnippetRow = InferEntity<typeof SnippetEntity>;
