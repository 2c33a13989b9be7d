import type { Readable } from 'node:stream';

/** A handler result with an explicit status, headers or body kind. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    /** `json` serialises the body; `raw` sends a string or bytes as they are; `stream` pipes a Node stream. */
    readonly kind: 'json' | 'raw' | 'stream' = 'json',
  ) {}
}

export const reply = (status: number, body: unknown, headers?: Record<string, string>) => new Reply(status, body, headers);
export const created = (body: unknown) => new Reply(201, body);
export const noContent = () => new Reply(204, null);
/** GitLab's asynchronous delete answer. */
export const accepted = () => new Reply(202, { message: '202 Accepted' });
export const raw = (status: number, body: string | Uint8Array, contentType: string, headers: Record<string, string> = {}) =>
  new Reply(status, body, { 'Content-Type': contentType, ...headers }, 'raw');

/** A body sent as it is produced, with backpressure (git's pack data, file downloads). */
export const stream = (status: number, body: Readable, contentType: string, headers: Record<string, string> = {}) =>
  new Reply(status, body, { 'Content-Type': contentType, ...headers }, 'stream');

/** One page of a list, with the total the pagination headers need (null when not counted). */
export class Page<T> {
  constructor(
    readonly items: readonly T[],
    readonly total: number | null,
  ) {}
}
export const page = <T>(items: readonly T[], total: number | null) => new Page(items, total);

/**
 * One page of a keyset-paginated list: `next` holds the params of the following
 * page (such as `{ id_after: 42 }`), or null at the end.
 */
export class KeysetPage<T> {
  constructor(
    readonly items: readonly T[],
    readonly next: Record<string, unknown> | null,
  ) {}
}
export const keysetPage = <T>(items: readonly T[], next: Record<string, unknown> | null) => new KeysetPage(items, next);
