/** Merges query, form, multipart and JSON input the way Grape does. */
import qs from 'qs';
import { readMultipartFormData, readRawBody, type H3Event } from 'h3';
import { frameworkError } from './errors.js';

const QS_OPTIONS = { depth: 10, arrayLimit: 1000, parameterLimit: 10_000, allowDots: false } as const;

/** A file from a multipart body. */
export interface UploadedFile {
  filename: string;
  type: string;
  data: Buffer;
}

export function parseQuery(rawQuery: string): Record<string, unknown> {
  return rawQuery ? (qs.parse(rawQuery, QS_OPTIONS) as Record<string, unknown>) : {};
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
    return qs.parse(raw, QS_OPTIONS) as Record<string, unknown>;
  }
  throw frameworkError(415, `The provided content-type '${type}' is not supported.`);
}

async function readMultipart(event: H3Event): Promise<Record<string, unknown>> {
  const parts = (await readMultipartFormData(event)) ?? [];
  const pairs: string[] = [];
  const files: Record<string, UploadedFile> = {};
  for (const part of parts) {
    if (!part.name) continue;
    if (part.filename !== undefined) {
      files[part.name] = { filename: part.filename, type: part.type ?? 'application/octet-stream', data: part.data };
    } else {
      pairs.push(`${encodeURIComponent(part.name)}=${encodeURIComponent(part.data.toString('utf8'))}`);
    }
  }
  // Text fields go through the same bracket syntax as a query string.
  return { ...(qs.parse(pairs.join('&'), QS_OPTIONS) as Record<string, unknown>), ...files };
}
