/** JSON Schema of a pipeline answer (`pipeline-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

export const pipelineBasicSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    iid: { type: 'integer' },
    project_id: { type: 'integer' },
    sha: { type: ['string', 'null'] },
    ref: { type: 'string' },
    status: { type: 'string' },
    source: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
    web_url: { type: 'string' },
  },
  required: ['id', 'iid', 'project_id', 'sha', 'ref', 'status', 'source', 'created_at', 'updated_at', 'web_url'],
};

/** `play`: the pipeline is queued, and only GitLab's acknowledgement comes back. */
export const pipelineQueuedSchema: JsonSchema = {
  type: 'object',
  properties: { message: { type: 'string' } },
  required: ['message'],
};
