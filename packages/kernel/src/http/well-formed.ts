/**
 * What GitLab refuses before its API sees a request: NUL bytes and invalid UTF-8 in
 * any parameter (400 `Bad Request`, as plain text), and JSON bodies nested or sized
 * past its limits (400 with `{"error": ...}`).
 */
import { frameworkError, malformedRequest } from './errors.js';

/** GitLab's default JSON limits. */
export const JSON_LIMITS = { depth: 32, arrayItems: 50_000, hashKeys: 50_000, elements: 100_000 } as const;

const hasNul = (text: string) => text.includes('\u0000');

/**
 * Throws unless every key and string in `value` is free of NUL bytes. Params from query
 * strings and forms are at most 32 levels deep (see nested-params); JSON is checked here.
 */
export function assertWellFormed(value: unknown, json = false): void {
  let elements = 0;
  const visit = (node: unknown, depth: number): void => {
    if (typeof node === 'string') {
      if (hasNul(node)) throw malformedRequest();
      return;
    }
    if (typeof node !== 'object' || node === null || Buffer.isBuffer(node)) return;
    if (json && depth >= JSON_LIMITS.depth) throw frameworkError(400, 'Parameters nested too deeply');
    if (Array.isArray(node)) {
      if (json && node.length > JSON_LIMITS.arrayItems) throw frameworkError(400, 'Array parameter too large');
      elements += node.length;
      if (json && elements > JSON_LIMITS.elements) throw frameworkError(400, 'Too many total parameters');
      for (const item of node) visit(item, depth + 1);
      return;
    }
    const keys = Object.keys(node);
    if (json && keys.length > JSON_LIMITS.hashKeys) throw frameworkError(400, 'Hash parameter too large');
    elements += keys.length;
    if (json && elements > JSON_LIMITS.elements) throw frameworkError(400, 'Too many total parameters');
    for (const key of keys) {
      if (hasNul(key)) throw malformedRequest();
      visit((node as Record<string, unknown>)[key], depth + 1);
    }
  };
  visit(value, 0);
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes as UTF-8 text; invalid UTF-8 is refused as GitLab refuses it. */
export function utf8(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw malformedRequest();
  }
}

/** A decoded URL path, refused when its escapes are invalid or it holds a NUL byte. */
export function assertWellFormedPath(path: string): void {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    throw malformedRequest();
  }
  if (hasNul(decoded)) throw malformedRequest();
}
