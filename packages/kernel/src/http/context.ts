import type { Readable } from 'node:stream';
import type { Credential, Principal } from '../auth/identity.js';
import type { Logger } from '../services/logger.js';
import type { PageRequest } from './pagination.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

/** `'/projects/:id/variables/:key'` → `'id' | 'key'`; any name for a path known only as a string. */
export type PathParamNames<P extends string> = string extends P
  ? string
  : P extends `${string}:${infer Name}/${infer Rest}`
    ? Name | PathParamNames<`/${Rest}`>
    : P extends `${string}:${infer Name}`
      ? Name
      : never;

/** What a handler sees of a request. Free of h3 types, so the router can change. */
export interface RequestContext<User extends Principal | null = Principal | null, Params extends string = string> {
  readonly requestId: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** Path params, URL-decoded (`group%2Fproject` → `group/project`). */
  readonly params: Readonly<Record<Params, string>>;
  /** The caller, after `sudo`; null for anonymous callers (on routes with `auth: 'optional'` or `'none'`). */
  readonly user: User;
  readonly credential: Credential | null;
  /** The admin who used `sudo`, if any. */
  readonly sudoer: Principal | null;
  /** The page asked for, on paginated routes. */
  readonly page: PageRequest;
  /** The request body as it arrives, on routes with `streamBody` (413 once past the route's limit). */
  readonly bodyStream: Readable | null;
  readonly ip: string;
  /**
   * The URL links in this answer start with, without a trailing slash: the configured
   * external URL, or the scheme and host this request was sent to.
   */
  readonly externalUrl: string;
  /**
   * A link built outside the request from the instance's URL (`kernelServices.instance`),
   * moved onto `externalUrl`; any other text is answered unchanged.
   */
  relink(url: string): string;
  readonly log: Logger;
  header(name: string): string | undefined;
  setHeader(name: string, value: string): void;
}

/** `entity` with its `web_url` (built outside the request from the instance's URL) moved onto the request's URL. */
export function relinkWebUrl<T extends { web_url?: unknown }>(ctx: Pick<RequestContext, 'relink'>, entity: T): T {
  return typeof entity.web_url === 'string' ? { ...entity, web_url: ctx.relink(entity.web_url) } : entity;
}
