import { definePlugin } from '@forgekit/kernel';
import { apiDocsRoutes } from './docs/docs-routes.js';
import { swaggerUiAssets } from './docs/swagger-ui-assets.js';

/** An interactive page of the API at `/-/api-docs`: Swagger UI over the server's OpenAPI document. */
export const apiDocsPlugin = definePlugin({
  id: 'api-docs',
  compatibility: '^0.1.0',
  register(ctx) {
    ctx.routes(...apiDocsRoutes(swaggerUiAssets()));
  },
});
