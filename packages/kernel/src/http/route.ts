import type { Principal } from '../auth/identity.js';
import type { ParamsSchema } from './params.js';
import type { HttpMethod, PathParamNames, RequestContext } from './context.js';
import type { JsonSchema } from '../openapi/field-schema.js';

export type { HttpMethod } from './context.js';

/**
 * Who may call a route:
 * - `required`: a valid token (401 otherwise);
 * - `optional`: anonymous callers allowed, a presented token is still checked;
 * - `admin`: 401 for anonymous callers, 403 for non-admins;
 * - `none`: no token is read at all.
 */
export type AuthMode = 'required' | 'optional' | 'admin' | 'none';

/** The caller a route's handler sees: always someone on `required` (the default) and `admin` routes. */
export type UserFor<A extends AuthMode | undefined> = A extends 'optional' | 'none' ? Principal | null : Principal;

/** The request context of a route with auth mode `A` and path `P`. */
export type RouteContext<A extends AuthMode | undefined = undefined, P extends string = string> = RequestContext<UserFor<A>, PathParamNames<P>>;

/** What a route answers on success, for the API description. */
export interface RouteResponse {
  /** Default: 201 for POST, 200 otherwise. */
  status?: number;
  /** The body's JSON Schema; on a paginated route, one item's. */
  schema?: JsonSchema;
  /** Default: `application/json`. */
  contentType?: string;
  /** Other successful answers, by status, with their body's schema (`null`: no body): 202 for a note made only of commands, a 302 redirect. */
  alternatives?: Readonly<Record<number, JsonSchema | null>>;
  /** The statuses the handler refuses with, besides the kernel's own (400, 401, 403, 404, 413, 500): 409, 422, 429… */
  errors?: readonly number[];
}

export interface Route<I = any, R = any, A extends AuthMode | undefined = AuthMode | undefined, P extends string = string> {
  method: HttpMethod;
  /** Relative to `/api/v4` unless `raw` is set; `:name` placeholders. */
  path: P;
  auth?: A;
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
  /** The success answer, described in the OpenAPI document (its body's shape is open when left out). */
  response?: RouteResponse;
  /** Offset pagination: the kernel reads `page`/`per_page` and writes the headers. */
  paginated?: boolean;
  /** Mount outside `/api/v4` (health checks, git over HTTP). */
  raw?: boolean;
  /** Also accept HTTP Basic auth with the token as the password (git over HTTP). */
  basicAuth?: boolean;
  /** Hand the request body to the handler as a stream (`ctx.bodyStream`) instead of parsing it. */
  streamBody?: boolean;
  /** Bytes this route's body may hold, instead of the kernel's `maxBodySize`; 0 for no limit. */
  maxBodySize?: number;
  /** Accept files in multipart bodies, each within the instance's attachment size, written to disk while the request runs. */
  uploads?: boolean;
  /** Route guards (by name) that leave this route alone: a write an archived project still takes, for one. */
  exemptFrom?: readonly string[];
  /**
   * Runs after authentication and before params are validated, as GitLab's `before`
   * blocks do: find and authorize the resource here, so that a caller without access
   * gets 404/403 rather than a validation error. Its result is the handler's third argument.
   */
  before?: (ctx: RouteContext<A, P>) => R | Promise<R>;
  handler: (ctx: RouteContext<A, P>, input: I, resource: R) => unknown | Promise<unknown>;
}

/**
 * Keeps types flowing into the handler: the input from the params schema, the caller
 * from `auth` (never null on `required` and `admin` routes), the path params from `path`.
 */
export function defineRoute<I, R = undefined, const A extends AuthMode | undefined = undefined, const P extends string = string>(
  route: Route<I, R, A, P>,
): Route<any, any> {
  return route as unknown as Route<any, any>;
}

/** What a route guard sees of a route when it decides whether to check it. */
export interface GuardedRoute {
  readonly pluginId: string;
  readonly method: HttpMethod;
  /** The full path, `/api/v4` included unless the route is raw; `:name` placeholders. */
  readonly path: string;
}

/**
 * A rule every route of a kind obeys (writes to an archived project, say), registered
 * once by the plugin that owns it rather than repeated in each route. It runs after
 * authentication and before the route's `before`, on the routes it applies to, except
 * those that name it in `exemptFrom`.
 */
export interface RouteGuard {
  /** Routes name it in `exemptFrom`; export it from the owner's contracts. */
  readonly name: string;
  /** Whether the guard checks this route; asked once per route, when the server is built. */
  applies(route: GuardedRoute): boolean;
  /** Throws the answer that refuses the request (`forbidden()`, say). */
  check(ctx: RequestContext): void | Promise<void>;
}
