import type { ParamsSchema } from './params.js';
import type { RequestContext } from './context.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

/**
 * Who may call a route:
 * - `required`: a valid token (401 otherwise);
 * - `optional`: anonymous callers allowed, a presented token is still checked;
 * - `admin`: 401 for anonymous callers, 403 for non-admins;
 * - `none`: no token is read at all.
 */
export type AuthMode = 'required' | 'optional' | 'admin' | 'none';

export interface Route<I = any, R = any> {
  method: HttpMethod;
  /** Relative to `/api/v4` unless `raw` is set; `:name` placeholders. */
  path: string;
  auth?: AuthMode;
  /**
   * Token scopes, besides `api` (and `read_api` on GET/HEAD), that allow this route.
   * `'handler'` hands the scope check to the route: the kernel still authenticates the
   * token (unknown, revoked and expired tokens get its 401s, sudo works as usual) but
   * refuses no scope, and the handler decides from `ctx.credential?.scopes`, for routes
   * that must answer a missing scope in their own format (git over HTTP).
   */
  scopes?: readonly string[] | 'handler';
  input?: ParamsSchema<I>;
  /** The body of a params error: Grape's `{"error": ...}` (default), or `{"message": ...}` for APIs with their own error formatter. */
  paramErrors?: 'error' | 'message';
  /** Offset pagination: the kernel reads `page`/`per_page` and writes the headers. */
  paginated?: boolean;
  /** Mount outside `/api/v4` (health checks, git over HTTP). */
  raw?: boolean;
  /** Also accept HTTP Basic auth with the token as the password (git over HTTP). */
  basicAuth?: boolean;
  /** Pass the request body to the handler as bytes instead of parsing it. */
  streamBody?: boolean;
  /**
   * Runs after authentication and before params are validated, as GitLab's `before`
   * blocks do: find and authorize the resource here, so that a caller without access
   * gets 404/403 rather than a validation error. Its result is the handler's third argument.
   */
  before?: (ctx: RequestContext) => R | Promise<R>;
  handler: (ctx: RequestContext, input: I, resource: R) => unknown | Promise<unknown>;
}

/** Identity helper that keeps the input type flowing from the params schema to the handler. */
export function defineRoute<I, R = undefined>(route: Route<I, R>): Route<I, R> {
  return route;
}
