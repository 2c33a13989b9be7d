/** JSON Schema of GitLab's NamespaceBasic (`namespace-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

/** A namespace as projects embed it and `/namespaces` lists it. */
export const namespaceBasicSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    path: { type: 'string' },
    kind: { type: 'string', enum: ['user', 'group'] },
    full_path: { type: 'string' },
    parent_id: { type: ['integer', 'null'] },
    avatar_url: { type: ['string', 'null'] },
    web_url: { type: 'string' },
  },
  required: ['id', 'name', 'path', 'kind', 'full_path', 'parent_id', 'avatar_url', 'web_url'],
};

/** The visibility names an answer gives. */
export const visibilitySchema: JsonSchema = { type: 'string', enum: ['private', 'internal', 'public'] };
