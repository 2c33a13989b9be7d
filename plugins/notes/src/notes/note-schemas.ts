/** JSON Schemas of the note answers (`note-presenter.ts`), for the API description. */
import { type JsonSchema, nullable } from '@forgekit/kernel';
import { userBasicSchema } from '@forgekit/plugin-core/contracts';

const orNullUser: JsonSchema = { anyOf: [userBasicSchema, { type: 'null' }] };
const time: JsonSchema = { type: 'string', format: 'date-time' };

/**
 * GitLab's Note. `commit_id` and `position` come on diff notes, `resolved*` on resolvable
 * ones; `id` is null on a note made only of an award, which is not kept.
 */
export const noteSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: nullable('integer'),
    type: nullable('string'),
    body: { type: 'string' },
    attachment: { type: 'null' },
    author: orNullUser,
    created_at: time,
    updated_at: time,
    system: { type: 'boolean' },
    noteable_id: { type: 'integer' },
    noteable_type: { type: 'string', enum: ['Issue', 'MergeRequest', 'Snippet', 'WikiPage'] },
    project_id: nullable('integer'),
    commit_id: nullable('string'),
    position: nullable('object'),
    resolvable: { type: 'boolean' },
    resolved: { type: 'boolean' },
    resolved_by: orNullUser,
    resolved_at: { type: ['string', 'null'], format: 'date-time' },
    confidential: { type: 'boolean' },
    internal: { type: 'boolean' },
    imported: { type: 'boolean' },
    imported_from: { type: 'string' },
    noteable_iid: nullable('integer'),
    commands_changes: { type: 'object' },
  },
  required: [
    'id',
    'type',
    'body',
    'attachment',
    'author',
    'created_at',
    'updated_at',
    'system',
    'noteable_id',
    'noteable_type',
    'project_id',
    'resolvable',
    'confidential',
    'internal',
    'imported',
    'imported_from',
    'noteable_iid',
    'commands_changes',
  ],
};

/** GitLab's NoteCommands: what a note made only of quick actions did (answered with 202). */
export const noteCommandsSchema: JsonSchema = {
  type: 'object',
  properties: {
    commands_changes: { type: 'object' },
    summary: { type: 'array', items: { type: 'string' } },
  },
  required: ['commands_changes', 'summary'],
};
