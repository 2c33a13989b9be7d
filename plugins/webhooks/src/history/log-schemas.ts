/** JSON Schemas of a hook's delivery history (`log-presenter.ts`) and of a resend, for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

/** `HookEvent`: one delivery. */
export const hookLogSchema: JsonSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    url: { type: 'string' },
    trigger: { type: 'string' },
    request_headers: { type: 'object', additionalProperties: { type: 'string' } },
    request_data: { type: 'object' },
    response_headers: { type: 'object' },
    response_body: { type: 'string' },
    execution_duration: { type: 'number' },
    // An HTTP status code, or `internal error`.
    response_status: { type: 'string' },
    created_at: { type: 'string', format: 'date-time' },
  },
  required: [
    'id',
    'url',
    'trigger',
    'request_headers',
    'request_data',
    'response_headers',
    'response_body',
    'execution_duration',
    'response_status',
    'created_at',
  ],
};

/** A resent delivery: the status the receiver answered. */
export const resendSchema: JsonSchema = {
  type: 'object',
  properties: { response_status: { type: 'integer' } },
  required: ['response_status'],
};
