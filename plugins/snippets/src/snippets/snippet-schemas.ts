/** JSON Schemas of the snippet answers (`snippet-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import { userBasicSchema } from '@forgekit/plugin-core/contracts';

/** `Snippet`: a snippet in a list. */
export const snippetSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    description: { type: ['string', 'null'] },
    visibility: { enum: ['private', 'internal', 'public'] },
    // Null once its author is gone.
    author: { anyOf: [userBasicSchema, { type: 'null' }] },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    project_id: { type: ['integer', 'null'] },
    web_url: { type: 'string' },
    raw_url: { type: 'string' },
    file_name: { type: ['string', 'null'] },
    imported: { type: 'boolean' },
    imported_from: { type: 'string' },
  },
  required: [
    'id',
    'title',
    'description',
    'visibility',
    'author',
    'created_at',
    'updated_at',
    'project_id',
    'web_url',
    'raw_url',
    'file_name',
    'imported',
    'imported_from',
  ],
};

/** `PersonalSnippet` / `ProjectSnippet`: one snippet, with its files and repository URLs. */
export const snippetDetailSchema: JsonSchema = {
  allOf: [
    snippetSchema,
    {
      type: 'object',
      properties: {
        expires_at: { type: 'null' },
        ssh_url_to_repo: { type: 'string' },
        http_url_to_repo: { type: 'string' },
        files: {
          type: 'array',
          items: { type: 'object', properties: { path: { type: 'string' }, raw_url: { type: 'string' } }, required: ['path', 'raw_url'] },
        },
      },
      required: ['expires_at', 'ssh_url_to_repo', 'http_url_to_repo', 'files'],
    },
  ],
};

/** A snippet file's text. */
export const snippetFileAnswer = { contentType: 'text/plain' } as const;
