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
  /** The server's external URL, without a trailing slash. */
  readonly externalUrl: string;
  readonly log: Logger;
  header(name: string): string | undefined;
  setHeader(name: string, value: string): void;
}
