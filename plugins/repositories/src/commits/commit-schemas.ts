/** JSON Schemas of the commit answers (`commit-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

const text: JsonSchema = { type: 'string' };
const time: JsonSchema = { type: 'string', format: 'date-time' };

/** The line counts of a commit (`stats`): on a single commit, and on a list with `with_stats`. */
export const commitStatsSchema: JsonSchema = {
  type: 'object',
  properties: { additions: { type: 'integer' }, deletions: { type: 'integer' }, total: { type: 'integer' } },
  required: ['additions', 'deletions', 'total'],
};

/** GitLab's Commit entity. */
export const commitSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: text,
    short_id: text,
    created_at: time,
    parent_ids: { type: 'array', items: text },
    title: text,
    message: text,
    author_name: text,
    author_email: text,
    authored_date: time,
    committer_name: text,
    committer_email: text,
    committed_date: time,
    trailers: { type: 'object' },
    extended_trailers: { type: 'object' },
    web_url: text,
    stats: commitStatsSchema,
  },
  required: [
    'id',
    'short_id',
    'created_at',
    'parent_ids',
    'title',
    'message',
    'author_name',
    'author_email',
    'authored_date',
    'committer_name',
    'committer_email',
    'committed_date',
    'trailers',
    'extended_trailers',
    'web_url',
  ],
};

/** GitLab's CommitDetail entity: a commit with its project, pipeline status and (unless left out) its stats. */
export const commitDetailSchema: JsonSchema = {
  allOf: [
    commitSchema,
    {
      type: 'object',
      properties: {
        status: { type: ['string', 'null'] },
        project_id: { type: 'integer' },
        last_pipeline: { type: ['object', 'null'] },
      },
      required: ['status', 'project_id', 'last_pipeline'],
    },
  ],
};
