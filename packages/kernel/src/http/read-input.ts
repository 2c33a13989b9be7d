/** Merges query, form, multipart and JSON input the way Grape does. */
import { readMultipartFormData, readRawBody, type H3Event } from 'h3';
import { frameworkError } from './errors.js';
import { nestPairs, parseNestedParams } from './nested-params.js';

/** A file from a multipart body. */
export interface UploadedFile {
  filename: string;
  type: string;
  data: Buffer;
}

export function parseQuery(rawQuery: string): Record<string, unknown> {
  return parseOrReject(rawQuery);
}

function parseOrReject(text: string): Record<string, unknown> {
  try {
    return parseNestedParams(text);
  } catch (error) {
    if (error instanceof RangeError) throw frameworkError(400, 'There was a problem with the request parameters');
    throw error;
  }
}

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The body's params; `{}` when there is none. Throws Grape's 400/415 on bad bodies. */
export async function readBodyParams(event: H3Event, method: string): Promise<Record<string, unknown>> {
  if (BODYLESS.has(method)) return {};
  const type = (event.node.req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'multipart/form-data') return readMultipart(event);
  const raw = await readRawBody(event, 'utf8');
  if (!raw) return {};
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      const parsed = JSON.parse(raw);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {};
    } catch {
      throw frameworkError(400, 'There was a problem with the request body');
    }
  }
  if (type === 'application/x-www-form-urlencoded' || type === '' || type === 'text/plain') {
    return parseOrReject(raw);
  }
  throw frameworkError(415, `The provided content-type '${type}' is not supported.`);
}

async function readMultipart(event: H3Event): Promise<Record<string, unknown>> {
  const parts = (await readMultipartFormData(event)) ?? [];
  const pairs: [string, unknown][] = [];
  for (const part of parts) {
    if (!part.name) continue;
    const value = part.filename !== undefined
      ? ({ filename: part.filename, type: part.type ?? 'application/octet-stream', data: part.data } satisfies UploadedFile)
      : part.data.toString('utf8');
    pairs.push([part.name, value]);
  }
  return nestPairs(pairs);
}
