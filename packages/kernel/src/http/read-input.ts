/** Merges query, form, multipart and JSON input the way Grape does, within the request's limits. */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { H3Event } from 'h3';
import { ApiError, frameworkError, tooLarge } from './errors.js';
import { isForbiddenKey, nestPairs, parseNestedParams } from './nested-params.js';
import { BodyAborted, bodyStream, readBody } from './request-body.js';
import { assertWellFormed, utf8 } from './well-formed.js';

import type { UploadedFile } from './uploaded-file.js';

export type { UploadedFile } from './uploaded-file.js';

export interface BodyLimits {
  /** Bytes of a JSON, form or plain body, and of a multipart body's fields together. */
  maxBodySize: number;
  /**
   * Bytes of one uploaded file, on routes that take uploads (read only when a multipart
   * body is sent). Elsewhere, file parts count towards `maxBodySize` and are dropped.
   */
  maxFileSize: (() => Promise<number>) | null;
  /** Where uploaded files are written while their request runs. */
  uploadDir: string;
}

/** The params a body carried, and the temporary files to remove when the request ends. */
export interface BodyInput {
  params: Record<string, unknown>;
  files: string[];
}

const MAX_PAIRS = 10_000;
const MAX_FILES = 10;

export function parseQuery(rawQuery: string): Record<string, unknown> {
  const params = parseOrReject(rawQuery);
  assertWellFormed(params);
  return params;
}

function parseOrReject(text: string): Record<string, unknown> {
  try {
    return parseNestedParams(text, MAX_PAIRS);
  } catch (error) {
    if (error instanceof RangeError) throw frameworkError(400, 'There was a problem with the request parameters');
    throw error;
  }
}

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);
const NO_BODY: BodyInput = Object.freeze({ params: Object.freeze({}) as Record<string, unknown>, files: [] as string[] });

/** The body's params; none for bodyless methods. Throws Grape's 400/415, 413 past the limits. */
export async function readBodyParams(event: H3Event, method: string, limits: BodyLimits): Promise<BodyInput> {
  if (BODYLESS.has(method)) return NO_BODY;
  const type = (event.node.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'multipart/form-data') return readMultipart(event, limits);
  const bytes = await readBody(event, limits.maxBodySize);
  if (bytes.length === 0) return NO_BODY;
  const raw = utf8(bytes);
  if (type === 'application/json' || type.endsWith('+json')) {
    let parsed: unknown;
    try {
      parsed = parseJson(raw);
    } catch {
      throw frameworkError(400, 'There was a problem with the request body');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return NO_BODY;
    assertWellFormed(parsed, true);
    return { params: parsed as Record<string, unknown>, files: [] };
  }
  if (type === 'application/x-www-form-urlencoded' || type === '' || type === 'text/plain') {
    const params = parseOrReject(raw);
    assertWellFormed(params);
    return { params, files: [] };
  }
  throw frameworkError(415, `The provided content-type '${type}' is not supported.`);
}

/** Keys that could reach a prototype never make it out of a JSON body. */
const PROTOTYPE_KEY = /"(__proto__|constructor|prototype)"/;
const dropPrototypeKeys = (key: string, value: unknown) => (isForbiddenKey(key) ? undefined : value);

function parseJson(raw: string): unknown {
  return PROTOTYPE_KEY.test(raw) ? JSON.parse(raw, dropPrototypeKeys) : JSON.parse(raw);
}

/**
 * Multipart with busboy: fields are kept (within `maxBodySize` together); on routes that
 * take uploads, files go to disk as they arrive, each refused with 413 past its limit.
 */
async function readMultipart(event: H3Event, limits: BodyLimits): Promise<BodyInput> {
  const maxFileSize = limits.maxFileSize ? await limits.maxFileSize() : 0;
  if (maxFileSize) await mkdir(limits.uploadDir, { recursive: true });
  const files: string[] = [];
  const pairs: [string, unknown][] = [];
  let inlineBytes = 0;
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: event.node.req.headers as Record<string, string>,
      defParamCharset: 'utf8',
      // busboy reports a file as over its limit once it holds `fileSize` bytes: one more, so a
      // file of exactly the limit is taken (GitLab refuses only what is larger).
      limits: { fieldSize: limits.maxBodySize, fields: MAX_PAIRS, files: MAX_FILES, parts: MAX_PAIRS, fileSize: (maxFileSize || limits.maxBodySize) + 1 },
    });
  } catch {
    throw frameworkError(400, 'There was a problem with the request body');
  }
  // Fields within maxBodySize, each file within its own limit: the stream as a whole stays within both.
  const body = bodyStream(event, limits.maxBodySize + MAX_FILES * maxFileSize);
  const writes: Promise<void>[] = [];
  const fileStreams: Readable[] = [];
  const fail = (error: unknown) => body.destroy(error as Error);
  const countInline = (bytes: number) => {
    inlineBytes += bytes;
    if (inlineBytes > limits.maxBodySize) fail(tooLarge());
  };
  parser.on('field', (name, value, info) => {
    countInline(Buffer.byteLength(value) + Buffer.byteLength(name));
    if (info.valueTruncated) fail(tooLarge());
    pairs.push([name, value]);
  });
  parser.on('file', (name, stream, info) => {
    // busboy destroys an open file stream with the parser's own error when the form is cut
    // off; the parser reports it through the pipeline below, so the stream's copy is dropped.
    stream.on('error', () => undefined);
    if (!maxFileSize) {
      stream.on('data', (chunk: Buffer) => countInline(chunk.length)).resume();
      return;
    }
    const path = join(limits.uploadDir, randomUUID());
    files.push(path);
    fileStreams.push(stream);
    stream.on('limit', () => fail(tooLarge()));
    const out = createWriteStream(path, { mode: 0o600 });
    const write = pipeline(stream, out).then(() => {
      pairs.push([
        name,
        { filename: info.filename ?? '', type: info.mimeType || 'application/octet-stream', size: out.bytesWritten, path } satisfies UploadedFile,
      ]);
    });
    write.catch(fail);
    writes.push(write);
  });
  for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const)
    parser.on(limit, () => fail(frameworkError(400, 'There was a problem with the request body')));
  try {
    await pipeline(body, parser);
    await Promise.all(writes);
  } catch (error) {
    // A file still being written would be created after its removal: end every write first.
    for (const stream of fileStreams) stream.destroy();
    await Promise.allSettled(writes);
    await removeFiles(files);
    if (error instanceof ApiError || error instanceof BodyAborted) throw error;
    throw frameworkError(400, 'There was a problem with the request body');
  }
  try {
    const params = nestPairs(pairs);
    assertWellFormed(params);
    return { params, files };
  } catch (error) {
    await removeFiles(files);
    if (error instanceof RangeError) throw frameworkError(400, 'There was a problem with the request parameters');
    throw error;
  }
}

export async function removeFiles(paths: readonly string[]): Promise<void> {
  await Promise.all(paths.map((path) => rm(path, { force: true })));
}
