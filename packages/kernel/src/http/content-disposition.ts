/**
 * Rails' `Content-Disposition` (`ActionDispatch::Http::ContentDisposition.format`) as GitLab
 * sends it for uploads and raw files: always both an ASCII `filename` and the UTF-8
 * `filename*`, e.g. `attachment; filename="test.jpg"; filename*=UTF-8''test.jpg`.
 * Written here because the `content-disposition` package leaves `filename*` out for
 * ASCII names and escapes other characters, and clients compare the header as GitLab sends it.
 */

/** Characters a quoted `filename=` keeps as they are; the rest is percent-encoded (Rails' rule). */
const TRADITIONAL_ESCAPED = /[^ A-Za-z0-9!#$+.^_`|~-]/gu;
/** Characters `filename*=` keeps as they are (RFC 5987). */
const RFC_5987_ESCAPED = /[^A-Za-z0-9!#$&+.^_`|~-]/gu;

const percentEscape = (text: string, unsafe: RegExp) =>
  text.replace(unsafe, (char) => [...Buffer.from(char)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''));

/** `<disposition>; filename="<ascii>"; filename*=UTF-8''<utf-8>` for a file name (no folders). */
export function contentDisposition(disposition: 'attachment' | 'inline', name: string): string {
  // Rails transliterates to ASCII: accents are dropped, other characters become `?`.
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, '?');
  return `${disposition}; filename="${percentEscape(ascii, TRADITIONAL_ESCAPED)}"; filename*=UTF-8''${percentEscape(name, RFC_5987_ESCAPED)}`;
}
