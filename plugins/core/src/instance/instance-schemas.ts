/** JSON Schemas of the instance routes' answers, for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

const nullableString: JsonSchema = { type: ['string', 'null'] };

/** `GET /version` and `GET /metadata`. */
export const metadataSchema: JsonSchema = {
  type: 'object',
  properties: {
    version: { type: 'string' },
    revision: { type: 'string' },
    kas: {
      type: 'object',
      properties: { enabled: { type: 'boolean' }, externalUrl: nullableString, externalK8sProxyUrl: nullableString, version: nullableString },
      required: ['enabled', 'externalUrl', 'externalK8sProxyUrl', 'version'],
    },
    enterprise: { type: 'boolean' },
  },
  required: ['version', 'revision', 'kas', 'enterprise'],
};

const checkStatus: JsonSchema = { type: 'string', enum: ['ok', 'failed'] };

/** `GET /-/liveness`. */
export const livenessSchema: JsonSchema = { type: 'object', properties: { status: { const: 'ok' } }, required: ['status'] };

/** `GET /-/readiness` (`db_check` with `?all=1`). */
export const readinessSchema: JsonSchema = {
  type: 'object',
  properties: {
    status: checkStatus,
    master_check: { type: 'array', items: { type: 'object', properties: { status: checkStatus }, required: ['status'] } },
    db_check: { type: 'array', items: { type: 'object', properties: { status: checkStatus, message: { type: 'string' } }, required: ['status'] } },
  },
  required: ['status', 'master_check'],
};
