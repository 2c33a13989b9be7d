/**
 * GitLab's checks on the revisions and paths a request names, applied before any value
 * reaches git: a value that could be read as an option, that points outside the
 * repository, or that is too long to pass to a process is refused with GitLab's texts.
 */
import * as v from 'valibot';
import { f, frameworkError } from '@forgekit/kernel';
import { isSafeRevision, MAX_PATH_BYTES } from '../git/ref-names.js';

export { isSafeRevision, MAX_PATH_BYTES, MAX_REVISION_LENGTH } from '../git/ref-names.js';

/** The longest author filter, as GitLab's `limit` validator words it. */
export const MAX_AUTHOR_LENGTH = 1024;

export const INVALID_REVISION = 'should be a valid reference path';
export const INVALID_PATH = 'should be a valid file path';

const decoded = (path: string) => {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
};

/**
 * GitLab's path traversal check (also on the once-more decoded value, as GitLab decodes
 * it), no control characters, and no longer than git can handle.
 */
export function isSafePath(path: string, options: { allowAbsolute?: boolean } = {}): boolean {
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) return false;
  if (/[\x00-\x1f\x7f]/.test(path)) return false;
  for (const candidate of new Set([path, decoded(path)])) {
    if (candidate.split(/[/\\]/).includes('..')) return false;
    if (!options.allowAbsolute && candidate.startsWith('/')) return false;
  }
  return true;
}

/** A revision param (`ref`, `ref_name`, `from`, …); empty reads as absent. */
export const revisionField = () =>
  v.pipe(
    f.string(),
    v.check((value) => value === '' || isSafeRevision(value), INVALID_REVISION),
  );

/** An optional repository path param (`path` of the tree and the commit list); a leading slash is read as the root. */
export const pathField = () =>
  v.pipe(
    f.string(),
    v.check((path) => isSafePath(path, { allowAbsolute: true }), INVALID_PATH),
  );

/** GitLab's `limit` validator, worded as Grape renders it. */
export const limitedField = (name: string, limit: number) =>
  v.pipe(
    f.string(),
    v.check((value) => value.length <= limit, `${name} must be less than ${limit} characters`),
  );

/** A revision taken from the URL or a required param: `400 {"error": "<name> should be a valid reference path"}`. */
export function checkRevision(name: string, value: string): string {
  if (!isSafeRevision(value)) throw frameworkError(400, `${name} ${INVALID_REVISION}`);
  return value;
}

/** A file path from the URL: `400 {"error": "file_path should be a valid file path"}`. */
export function checkPath(name: string, path: string, options: { allowAbsolute?: boolean } = {}): string {
  if (!isSafePath(path, options)) throw frameworkError(400, `${name} ${INVALID_PATH}`);
  return path;
}
