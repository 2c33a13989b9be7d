/**
 * The body of a git request as git should read it: inflated as it arrives when the client
 * sent it gzip-compressed, and for a push, split into the ref update commands (read
 * before git runs, for the checks) and the pack that follows (passed on as it arrives).
 */
import { PassThrough, Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { tooLarge, type RequestContext } from '@forgekit/kernel';
import { readPushRequest, type PushRequest } from './pkt-line.js';

/** A `Content-Encoding: gzip` body that does not inflate. */
export class CorruptBody extends Error {
  constructor(cause: unknown) {
    super('the request body does not inflate', { cause });
  }
}

/** Ref update commands a push may hold before its pack (a mirror push of very many refs fits). */
const MAX_PUSH_COMMANDS_BYTES = 32 * 1024 * 1024;

/**
 * What a fetch's negotiation may hold once inflated: pkt-lines of `want` and `have`, about
 * 50 bytes each, so 8 MiB is over 150,000 of them. A body past it (a gzip bomb of `want`
 * lines, say) is refused with 413 as soon as it gets there, before git reads on.
 */
export const MAX_NEGOTIATION_BYTES = 8 * 1024 * 1024;

/** Passes at most `limit` bytes on, and fails with 413 at the first byte past them. */
function atMost(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > limit) done(tooLarge());
      else done(null, chunk);
    },
  });
}

/** The request body as git reads it: inflated when gzip-compressed, and at most `maxBytes` of it once inflated. */
export function requestInput(ctx: RequestContext, options: { maxBytes?: number } = {}): Readable {
  const body = ctx.bodyStream ?? Readable.from([]);
  const encoding = (ctx.header('content-encoding') ?? '').trim().toLowerCase();
  const gzip = encoding === 'gzip' || encoding === 'x-gzip';
  if (!gzip && options.maxBytes === undefined) return body;
  const out = new PassThrough();
  const stages: Transform[] = [];
  const fail = (error: Error) => {
    out.destroy(error);
    for (const stream of [body, ...stages]) stream.destroy();
  };
  body.once('error', fail);
  let source: Readable = body;
  if (gzip) {
    const gunzip = createGunzip();
    gunzip.once('error', (error) => fail(new CorruptBody(error)));
    stages.push(gunzip);
    source = source.pipe(gunzip);
  }
  if (options.maxBytes !== undefined) {
    const limiter = atMost(options.maxBytes);
    limiter.once('error', fail);
    stages.push(limiter);
    source = source.pipe(limiter);
  }
  source.pipe(out);
  return out;
}

/** Where the pkt-lines of `buffer` from `offset` reach a flush packet (the offset past it), or -1 while incomplete. */
function flushEnd(buffer: Buffer, offset: number): { end: number; scanned: number } {
  let at = offset;
  while (at + 4 <= buffer.length) {
    const length = Number.parseInt(buffer.subarray(at, at + 4).toString('ascii'), 16);
    if (Number.isNaN(length) || length < 4) return { end: at + 4, scanned: at };
    if (at + length > buffer.length) break;
    at += length;
  }
  return { end: -1, scanned: at };
}

/**
 * Reads a receive-pack request up to the end of its commands; returns them with the
 * whole request (commands and the rest, unread) as a stream for git.
 */
export async function readPushCommands(input: Readable): Promise<{ request: PushRequest; input: Readable }> {
  const chunks = input[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let buffer: Buffer = Buffer.alloc(0);
  let scanned = 0;
  let end = -1;
  while (end < 0) {
    const next = await chunks.next();
    if (next.done) break;
    buffer = buffer.length === 0 ? next.value : Buffer.concat([buffer, next.value]);
    ({ end, scanned } = flushEnd(buffer, scanned));
    if (end < 0 && buffer.length > MAX_PUSH_COMMANDS_BYTES) throw tooLarge();
  }
  const request = readPushRequest(end < 0 ? buffer : buffer.subarray(0, end));
  async function* whole() {
    if (buffer.length > 0) yield buffer;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  }
  return { request, input: Readable.from(whole(), { objectMode: false }) };
}

/** Reads and discards the rest of a request, so a refusal reaches a client that is still sending. */
export async function drain(input: Readable): Promise<void> {
  for await (const _chunk of input) {
    // discarded
  }
}
