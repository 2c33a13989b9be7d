import { defineRoute, type Route } from '../http/route.js';
import { raw } from '../http/responses.js';
import type { OpenApiDocument } from './build-document.js';

/** Where the kernel serves its OpenAPI document, below `/api/v4`. */
export const OPENAPI_PATH = '/openapi.json';

/** `/api/v4/openapi.json`, to anyone: the text is rendered once, on the first request. */
export function openApiRoute(document: () => OpenApiDocument): Route<any> {
  let text: string | undefined;
  return defineRoute({
    method: 'GET',
    path: OPENAPI_PATH,
    auth: 'none',
    response: { schema: { type: 'object', required: ['openapi', 'info', 'paths'] } },
    handler() {
      text ??= JSON.stringify(document());
      return raw(200, text, 'application/json');
    },
  });
}
