import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';

/**
 * One `suggestion` block of a diff note on a merge request: the lines it replaces in the
 * note's file (`fromLine`..`toLine`, inclusive) and their text when the note was written.
 */
export const SuggestionEntity = defineEntity({
  name: 'Suggestion',
  tableName: 'suggestions',
  uniques: [{ properties: ['noteId', 'relativeOrder'] }],
  indexes: [{ properties: ['mergeRequestId'] }, { properties: ['projectId'] }],
  properties: (p) => ({
    id: p.integer().primary(),
    noteId: p.integer(),
    mergeRequestId: p.integer(),
    projectId: p.integer(),
    relativeOrder: p.integer(),
    filePath: p.text(),
    fromLine: p.integer(),
    toLine: p.integer(),
    /** Whether the block replaces one line only (`suggestion:-0+0`): the outdated message is singular then. */
    singleLine: p.boolean(),
    fromContent: p.text(),
    toContent: p.text(),
    applied: p.boolean().default(false),
    commitId: p.string().length(64).nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type SuggestionRow = InferEntity<typeof SuggestionEntity>;
