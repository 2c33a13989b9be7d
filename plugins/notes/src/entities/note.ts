import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';
import type { NoteableType } from '../contracts.js';

/**
 * A note on an issue, a merge request or a snippet: comments and system notes alike.
 * `type`, `position`, `line_code` and `commit_id` are for discussion and diff notes.
 */
export const NoteEntity = defineEntity({
  name: 'Note',
  tableName: 'notes',
  indexes: [
    { properties: ['noteableType', 'noteableId', 'createdAt', 'id'] },
    { properties: ['projectId'] },
    { properties: ['discussionId'] },
    { properties: ['authorId'] },
  ],
  properties: (p) => ({
    id: p.integer().primary(),
    noteableType: p.string().$type<NoteableType>().length(32),
    noteableId: p.integer(),
    noteableIid: p.integer().nullable(),
    projectId: p.integer().nullable(),
    authorId: p.integer(),
    body: p.text(),
    system: p.boolean().default(false),
    internal: p.boolean().default(false),
    type: p.string().length(32).nullable(),
    discussionId: p.string().length(40).nullable(),
    position: p.text().nullable(),
    lineCode: p.string().length(255).nullable(),
    commitId: p.string().length(64).nullable(),
    resolvable: p.boolean().default(false),
    resolvedAt: p.datetime().nullable(),
    resolvedById: p.integer().nullable(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
    /** Raised by every update of the row: the version presented notes are cached by. */
    lockVersion: p.integer().version().default(0),
  }),
});

export type NoteRow = InferEntity<typeof NoteEntity>;
