import { defineRoute, notFound, raw, type Route } from '@forgekit/kernel';
import { API_DOCS_PATH } from '../contracts.js';
import { DOCS_PAGE, START_SCRIPT } from './docs-page.js';
import type { AssetSource } from './swagger-ui-assets.js';

const HTML = 'text/html; charset=utf-8';
const JAVASCRIPT = 'text/javascript; charset=utf-8';
/** Swagger UI's files change only with the package: a day's caching saves reloading 1.5 MB. */
const CACHED = { 'Cache-Control': 'public, max-age=86400' };

/** `/-/api-docs` (the page) and `/-/api-docs/:file` (its script and Swagger UI's files), to anyone. */
export function apiDocsRoutes(assets: AssetSource): Route<any>[] {
  return [
    defineRoute({
      method: 'GET',
      path: API_DOCS_PATH,
      raw: true,
      auth: 'none',
      response: { contentType: 'text/html' },
      handler: () => raw(200, DOCS_PAGE, HTML),
    }),
    defineRoute({
      method: 'GET',
      path: `${API_DOCS_PATH}/:file`,
      raw: true,
      auth: 'none',
      // A script, a stylesheet or an image, by the file's name.
      response: { contentType: '*/*' },
      async handler(ctx) {
        const file = ctx.params.file!;
        if (file === 'start.js') return raw(200, START_SCRIPT, JAVASCRIPT);
        const asset = await assets.get(file);
        if (!asset) throw notFound();
        return raw(200, asset.body, asset.contentType, CACHED);
      },
    }),
  ];
}
