/**
 * The page and the script that starts Swagger UI on it. Every URL is relative to the page
 * (`<base>/-/api-docs`), so the page works below any base path the server is mounted at.
 */

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>forgekit API</title>
    <link rel="icon" type="image/png" href="api-docs/favicon-32x32.png">
    <link rel="stylesheet" href="api-docs/swagger-ui.css">
  </head>
  <body>
    <div id="api-docs"></div>
    <script src="api-docs/swagger-ui-bundle.js"></script>
    <script src="api-docs/start.js"></script>
  </body>
</html>
`;

/** A separate file rather than an inline script, so the page runs under a strict Content-Security-Policy. */
export const START_SCRIPT = `window.ui = SwaggerUIBundle({
  url: new URL('../api/v4/openapi.json', document.baseURI).href,
  dom_id: '#api-docs',
  deepLinking: true,
  // Over five hundred operations: the page opens with one line per plugin, and a filter box.
  docExpansion: 'none',
  filter: true,
  // The document is the server's own: no call to an outside validator.
  validatorUrl: null,
  persistAuthorization: true,
});
`;
