/**
 * Checks every answer a listening server gives against its own OpenAPI document, as the
 * client received it: the status must be one the operation lists, and a JSON body must match
 * the schema listed for that status. The black-box suites' clients (gitbeaker, python-gitlab,
 * git, fetch) all go through it, so the document is held to the wire format.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { documentChecker } from './openapi-document.js';

/** Bodies past this size are not kept (a clone's pack): only their status is checked. */
const MAX_KEPT_BYTES = 4 * 1024 * 1024;

export interface AnswerRecorder {
  listener: RequestListener;
  /** Each distinct mismatch, once: `GET /api/v4/projects/{id} 200: /name must be string`. */
  problems(): string[];
}

/** Answers that never carry a body. */
const BODILESS = new Set([204, 304]);

/** How a body is read for its check: parsed JSON, a text, or not at all. */
const bodyKind = (contentType: string) =>
  contentType === 'application/json' || contentType.endsWith('+json') ? 'json' : contentType.startsWith('text/') ? 'text' : 'none';

export function recordAnswers(listener: RequestListener, document: () => unknown): AnswerRecorder {
  let check: ReturnType<typeof documentChecker> | undefined;
  const problems = new Set<string>();

  function inspect(request: IncomingMessage, response: ServerResponse, chunks: Buffer[] | null) {
    check ??= documentChecker(document());
    const method = request.method === 'HEAD' ? 'GET' : (request.method ?? 'GET');
    const path = decodeURI((request.url ?? '/').split('?')[0]!);
    const contentType = String(response.getHeader('content-type') ?? 'application/json')
      .split(';')[0]!
      .trim();
    const kind = chunks === null || request.method === 'HEAD' || BODILESS.has(response.statusCode) ? 'none' : bodyKind(contentType);
    let body: unknown = null;
    if (kind === 'json') {
      const text = Buffer.concat(chunks!).toString('utf8');
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        problems.add(`${method} ${path} ${response.statusCode}: the body is not JSON`);
        return;
      }
    } else if (kind === 'text') body = Buffer.concat(chunks!).toString('utf8');
    const result = check(method, path, response.statusCode, body, contentType);
    // Unknown routes answer the kernel's 404; they belong to no operation.
    if (result.template === null && response.statusCode >= 400) return;
    // A text answer is held to its schema where the operation gives one; a binary answer is checked for its status alone.
    const kept =
      kind === 'json'
        ? result.problems
        : kind === 'text'
          ? result.problems.filter((problem) => !problem.includes(` lists no ${contentType} body`))
          : result.problems.filter((problem) => problem.includes(' answer (it lists '));
    const excerpt = kind !== 'none' && kept.some((problem) => !problem.includes(' lists no ')) ? ` (body: ${JSON.stringify(body).slice(0, 300)})` : '';
    for (const problem of kept) problems.add(`${method} ${result.template ?? path} ${response.statusCode}: ${problem}${excerpt}`);
  }

  const recording: RequestListener = (request, response) => {
    let chunks: Buffer[] | null = [];
    let kept = 0;
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (chunks === null || chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
      kept += buffer.length;
      if (kept > MAX_KEPT_BYTES) chunks = null;
      else chunks.push(buffer);
    };
    const write = response.write.bind(response) as (...args: unknown[]) => boolean;
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    response.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as ServerResponse['write'];
    response.end = ((chunk?: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return end(chunk, ...rest);
    }) as ServerResponse['end'];
    response.once('finish', () => inspect(request, response, chunks));
    listener(request, response);
  };

  return { listener: recording, problems: () => [...problems].sort() };
}
