/** JSON Schemas of the storage move answers (`move-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import type { ContainerAdapter } from './containers.js';

const moveSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    created_at: { type: 'string', format: 'date-time' },
    state: { type: 'string', enum: ['initial', 'scheduled', 'started', 'finished', 'failed', 'replicated', 'cleanup failed'] },
    source_storage_name: { type: 'string' },
    destination_storage_name: { type: 'string' },
    error_message: { type: ['string', 'null'] },
  },
  required: ['id', 'created_at', 'state', 'source_storage_name', 'destination_storage_name', 'error_message'],
};

/** A project or snippet as its owner presents it, of which a move relies on the id alone. */
const ownedElsewhere: JsonSchema = { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] };

const CONTAINER_SCHEMAS: Record<ContainerAdapter['key'], JsonSchema> = {
  project: ownedElsewhere,
  snippet: ownedElsewhere,
  group: {
    type: 'object',
    properties: { id: { type: 'integer' }, web_url: { type: 'string' }, name: { type: 'string' } },
    required: ['id', 'web_url', 'name'],
  },
};

/** A move with its container under the container's key (null once the container is gone). */
export const moveSchemaFor = (key: ContainerAdapter['key']): JsonSchema => ({
  allOf: [moveSchema, { type: 'object', properties: { [key]: { anyOf: [CONTAINER_SCHEMAS[key], { type: 'null' }] } }, required: [key] }],
});
