import type { EntityManager } from '@mikro-orm/core';
import type { Knex } from '@mikro-orm/knex';
import type { DependencyContainer } from 'tsyringe';
import type { Credential, Principal } from '../auth/identity.js';
import type { Logger } from '../services/logger.js';
import type { PageRequest } from './pagination.js';
import type { HttpMethod } from './route.js';

/** What a handler sees of a request. Free of h3 types, so the router can change. */
export interface RequestContext {
  readonly requestId: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** Path params, URL-decoded (`group%2Fproject` → `group/project`). */
  readonly params: Readonly<Record<string, string>>;
  /** The caller, after `sudo`; null for anonymous callers. */
  readonly user: Principal | null;
  readonly credential: Credential | null;
  /** The admin who used `sudo`, if any. */
  readonly sudoer: Principal | null;
  /** The page asked for, on paginated routes. */
  readonly page: PageRequest;
  /** The request body as bytes, on routes with `streamBody`. */
  readonly body: Buffer | null;
  readonly ip: string;
  /** The server's external URL, without a trailing slash. */
  readonly externalUrl: string;
  /** knex on the shared connection pool: for lean reads and explicit transactions. */
  readonly db: Knex;
  /** A MikroORM EntityManager forked for this request (created on first use). */
  readonly em: EntityManager;
  /** A DI child scope for this request (created on first use). */
  readonly scope: DependencyContainer;
  readonly log: Logger;
  header(name: string): string | undefined;
  setHeader(name: string, value: string): void;
}
