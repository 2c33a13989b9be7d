/**
 * What GitLab decides from an upload's file name: the stored name (sanitised, so that no
 * path escapes the storage folder), whether the file embeds as an image, video or audio,
 * its Markdown, and the `Content-Type` and disposition it is served with (the header itself is the
 * kernel's `contentDisposition`).
 */
import { lookup } from 'mime-types';

/** Bytes a stored file name may take: what common filesystems allow for one name. */
export const MAX_FILENAME_BYTES = 255;

/** CarrierWave's rule: anything but word characters, `.`, `-` and `+` becomes `_`. */
const UNSAFE = /[^\p{L}\p{M}\p{Nd}\p{Pc}.\-+]/gu;

/** The last path segment of a name a client sent, with unsafe characters replaced, within MAX_FILENAME_BYTES. */
export function sanitizeFilename(sent: string): string {
  // Ruby's File.basename: trailing slashes go first.
  const base = sent.replaceAll('\\', '/').replace(/\/+$/, '').split('/').pop() ?? '';
  let name = base.replace(UNSAFE, '_');
  // `.` and `..` would name folders, not files.
  if (/^\.+$/.test(name)) name = `_${name}`;
  if (name === '') name = 'unnamed';
  return fitBytes(name);
}

/** Shortens the name before its extension until it fits, keeping whole characters. */
function fitBytes(name: string): string {
  if (Buffer.byteLength(name) <= MAX_FILENAME_BYTES) return name;
  const dot = name.lastIndexOf('.');
  let extension = dot > 0 ? name.slice(dot) : '';
  if (Buffer.byteLength(extension) > 32) extension = '';
  const stem = [...(extension ? name.slice(0, dot) : name)];
  while (stem.length > 0 && Buffer.byteLength(stem.join('') + extension) > MAX_FILENAME_BYTES) stem.pop();
  return stem.join('') + extension;
}

const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

/** GitLab's safe image, video and audio extensions: embedded inline. */
const EMBEDDABLE = new Set(['png', 'jpg', 'jpeg', 'gif', 'bmp', 'tiff', 'ico', 'webp', 'mp4', 'm4v', 'mov', 'webm', 'ogv', 'mp3', 'oga', 'ogg', 'spx', 'wav']);
/** Images that may carry scripts: shown with `!`, but always served as attachments. */
const DANGEROUS_EMBEDDABLE = new Set(['svg']);

export const isEmbeddable = (name: string) => EMBEDDABLE.has(extensionOf(name));

/** The `alt` text: an embeddable file's name without its extension, else the whole name. */
export function markdownName(name: string): string {
  if (!isEmbeddable(name)) return name;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** `![alt](url)` for images, videos, audio and SVG; `[name](url)` for everything else. */
export function markdownLink(name: string, url: string): string {
  const link = `[${markdownName(name).replaceAll(']', '\\]')}](${url})`;
  return isEmbeddable(name) || DANGEROUS_EMBEDDABLE.has(extensionOf(name)) ? `!${link}` : link;
}

/** The type a file is served with, from its extension. */
export const contentTypeOf = (name: string) => lookup(name) || 'application/octet-stream';

/** A path segment as a URL carries it: what is not a path character is percent-encoded. */
export const pathSegment = (name: string) => encodeURIComponent(name).replace(/%2B/g, '+');

/** How a browser opening the Markdown link gets the file: embeddable files inline, everything else as an attachment. */
export const webDisposition = (name: string): 'attachment' | 'inline' => (isEmbeddable(name) ? 'inline' : 'attachment');
