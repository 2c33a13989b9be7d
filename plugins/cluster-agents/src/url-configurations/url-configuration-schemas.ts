/** JSON Schema of a URL configuration answer (`url-configuration-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

const nullableText: JsonSchema = { type: ['string', 'null'] };

export const urlConfigurationSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    agent_id: { type: 'integer' },
    url: { type: 'string' },
    public_key: nullableText,
    client_cert: nullableText,
    ca_cert: nullableText,
    tls_host: nullableText,
  },
  required: ['id', 'agent_id', 'url', 'public_key', 'client_cert', 'ca_cert', 'tls_host'],
};
