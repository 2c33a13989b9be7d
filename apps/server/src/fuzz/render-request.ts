/** Turns a generated case into a fetch `Request`, and into a short text that tells how to send it again. */
import { encodeSegment, type Body, type JsonValue, type MultipartPart, type Pair, type TextValue } from './hostile-values.js';

export interface FuzzCase {
  method: string;
  /** The route's path with `:name` placeholders. */
  path: string;
  pathValues: TextValue[];
  query: Pair[];
  body: Body;
}

const BOUNDARY = 'fuzz-boundary-7MA4YWxkTrZu0gW';
/** Name parts sent as they are: already percent-encoded, to carry a NUL or invalid UTF-8. */
const RAW_NAME_PARTS = new Set(['%00', 'a%00b', '%FF']);

const repeatHuge = (value: { huge: string; length: number }) => value.huge.repeat(value.length);

export function encodeValue(value: TextValue): string {
  if ('raw' in value) return value.raw;
  return encodeSegment('huge' in value ? repeatHuge(value) : value.text);
}

/** Brackets stay as they are, as clients send them; the rest is percent-encoded. */
export function encodeName(name: string): string {
  return name
    .split(/([[\]])/)
    .map((part) => (part === '[' || part === ']' || RAW_NAME_PARTS.has(part) ? part : encodeSegment(part)))
    .join('');
}

export function encodePairs(pairs: readonly Pair[]): string {
  return pairs.map(([name, value]) => (value === null ? encodeName(name) : `${encodeName(name)}=${encodeValue(value)}`)).join('&');
}

/** `%XX` escapes become their bytes (invalid UTF-8 stays invalid); anything else is UTF-8. */
function rawBytes(raw: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const hex = raw.slice(i + 1, i + 3);
    if (raw[i] === '%' && /^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(raw[i]!, 'utf8'));
  }
  return Buffer.from(bytes);
}

function valueBytes(value: TextValue): Buffer {
  if ('raw' in value) return rawBytes(value.raw);
  return Buffer.from('huge' in value ? repeatHuge(value) : value.text, 'utf8');
}

export function jsonText(value: JsonValue): string {
  if ('scalar' in value) return JSON.stringify(value.scalar);
  if ('huge' in value) return JSON.stringify(repeatHuge(value));
  if ('list' in value) return `[${value.list.map(jsonText).join(',')}]`;
  if ('entries' in value) return `{${value.entries.map(([key, item]) => `${JSON.stringify(key)}:${jsonText(item)}`).join(',')}}`;
  return value.deep === 'list' ? '['.repeat(value.depth) + ']'.repeat(value.depth) : `${'{"a":'.repeat(value.depth)}1${'}'.repeat(value.depth)}`;
}

function multipart(parts: readonly MultipartPart[], closed: boolean): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.contentType ? `Content-Type: ${part.contentType}\r\n` : '';
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n${type}\r\n`, 'utf8'));
    chunks.push(valueBytes(part.value), Buffer.from('\r\n'));
  }
  if (closed) chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

function renderBody(body: Body): { bytes: Buffer | null; contentType: string | null } {
  switch (body.kind) {
    case 'none':
      return { bytes: null, contentType: null };
    case 'form':
      return { bytes: Buffer.from(encodePairs(body.pairs), 'utf8'), contentType: body.contentType };
    case 'json':
      return { bytes: Buffer.from(jsonText(body.value), 'utf8'), contentType: body.contentType };
    case 'json-text':
      return { bytes: Buffer.from(body.text, 'utf8'), contentType: body.contentType };
    case 'bytes':
      return { bytes: Buffer.from(body.bytes), contentType: body.contentType };
    case 'multipart': {
      const whole = multipart(body.parts, body.closed);
      const boundary = { right: `; boundary=${BOUNDARY}`, missing: '', wrong: '; boundary=another-boundary' }[body.boundary];
      return { bytes: whole.subarray(0, Math.floor(whole.length * body.keep)), contentType: `multipart/form-data${boundary}` };
    }
  }
}

export function renderPath(path: string, values: readonly TextValue[]): string {
  let index = 0;
  return path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? encodeValue(values[index++]!) : segment))
    .join('/');
}

export interface Rendered {
  request: Request;
  /** Method, URL, headers and body, long runs folded, to send the same request again. */
  describe(): string;
}

export function renderCase(fuzzCase: FuzzCase, token: string | null): Rendered {
  const query = encodePairs(fuzzCase.query);
  const target = renderPath(fuzzCase.path, fuzzCase.pathValues) + (query ? `?${query}` : '');
  const bodyless = fuzzCase.method === 'GET' || fuzzCase.method === 'HEAD';
  const { bytes, contentType } = bodyless ? { bytes: null, contentType: null } : renderBody(fuzzCase.body);
  const headers = new Headers();
  if (token) headers.set('PRIVATE-TOKEN', token);
  if (contentType !== null) headers.set('Content-Type', contentType);
  const request = new Request(`http://localhost${target}`, { method: fuzzCase.method, headers, body: bytes });
  return {
    request,
    describe: () => {
      const lines = [`${fuzzCase.method} ${fold(target)}`];
      if (contentType !== null) lines.push(`Content-Type: ${fold(contentType)}`);
      if (bytes) lines.push(`body (${bytes.length} bytes): ${fold(JSON.stringify(bytes.toString('latin1')))}`);
      return lines.join('\n');
    },
  };
}

/** Runs of one character become `<c×n>`, and the whole is cut at 2,000 characters. */
export function fold(text: string): string {
  const folded = text.replace(/(.)\1{63,}/gsu, (run, char: string) => `<${JSON.stringify(char)}×${[...run].length}>`);
  return folded.length > 2000 ? `${folded.slice(0, 2000)}… (${folded.length} characters)` : folded;
}
