/** What other packages may use of the API docs plugin: where it serves its page. */

/** The page's path below the server's base path (outside `/api/v4`, like the health checks). */
export const API_DOCS_PATH = '/-/api-docs';
