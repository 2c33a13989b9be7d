/**
 * Request bodies, read as they arrive and never past a limit: a body that declares or
 * reaches more than its limit is refused with 413 before the rest is read.
 */
import { Readable } from 'node:stream';
import type { H3Event } from 'h3';
import { tooLarge } from './errors.js';

/** The client went away, or the HTTP parser refused its body, before the body was read whole. */
export class BodyAborted extends Error {
  constructor(cause: unknown) {
    super('request body aborted', { cause });
  }
}

/** In-process requests carry a web stream; requests from a socket are the Node stream itself. */
function sourceOf(event: H3Event): AsyncIterable<Uint8Array> | null {
  if (event.web?.request) return (event.web.request.body as unknown as AsyncIterable<Uint8Array> | null) ?? null;
  return event.node.req;
}

/** The body's length as the client declared it, or null. */
export function declaredLength(event: H3Event): number | null {
  const header = event.node.req.headers['content-length'];
  if (header === undefined) return null;
  const length = Number(header);
  return Number.isSafeInteger(length) && length >= 0 ? length : null;
}

/** The body's chunks, refusing with 413 once more than `limit` bytes (0: no limit) declare themselves or arrive. */
export async function* bodyChunks(event: H3Event, limit: number): AsyncGenerator<Buffer> {
  const declared = declaredLength(event);
  if (limit > 0 && declared !== null && declared > limit) throw tooLarge();
  const source = sourceOf(event);
  if (!source) return;
  // Not `for await`: leaving it early would destroy the request, and the server could no
  // longer answer on its socket. What is left unread is dropped by the HTTP server.
  const chunks = source[Symbol.asyncIterator]();
  let total = 0;
  for (;;) {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await chunks.next();
    } catch (error) {
      throw new BodyAborted(error);
    }
    if (next.done) return;
    const chunk = next.value;
    total += chunk.byteLength;
    if (limit > 0 && total > limit) throw tooLarge();
    yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
}

/** The body as a Node stream with backpressure, for handlers that pass it on (to git, to disk). */
export function bodyStream(event: H3Event, limit: number): Readable {
  return Readable.from(bodyChunks(event, limit), { objectMode: false });
}

/** The whole body, at most `limit` bytes. */
export async function readBody(event: H3Event, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of bodyChunks(event, limit)) chunks.push(chunk);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}
