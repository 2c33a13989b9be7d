/** Offset pagination with GitLab's parameters and headers. */
import qs from 'qs';
import { coerceInteger } from './fields.js';
import { frameworkError } from './errors.js';

export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 20;
/** Above this many rows GitLab stops reporting totals. */
export const MAX_COUNT = 10_000;

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
  /** What the client sent for `per_page`, repeated in Link URLs. */
  perPageSent: number;
}

function readPositive(name: string, value: unknown, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  const parsed = coerceInteger(value);
  if (typeof parsed !== 'number') throw frameworkError(400, `${name} is invalid`);
  return parsed;
}

export function readPageRequest(input: Record<string, unknown>): PageRequest {
  const perPageSent = readPositive('per_page', input.per_page, DEFAULT_PER_PAGE);
  if (perPageSent === 0) throw frameworkError(400, 'per_page has a value not allowed');
  const requested = readPositive('page', input.page, 1);
  const page = Math.max(requested, 1);
  const perPage = perPageSent < 1 ? DEFAULT_PER_PAGE : Math.min(perPageSent, MAX_PER_PAGE);
  return { page, perPage, offset: (page - 1) * perPage, perPageSent };
}

const QUERY_FORMAT = { arrayFormat: 'brackets', sort: (a: string, b: string) => a.localeCompare(b), format: 'RFC1738' } as const;

/**
 * Bytes of one Link URL's query. Links repeat the request's params four times, and clients
 * refuse long headers (Node's fetch stops at 16 KiB), so the largest params are left out past it.
 */
export const MAX_LINK_QUERY = 2048;

/** The query of a Link URL: every request param, keys sorted, as Rails' `to_query`, within MAX_LINK_QUERY. */
export function linkQuery(params: Record<string, unknown>): string {
  const query = qs.stringify(params, QUERY_FORMAT);
  if (query.length <= MAX_LINK_QUERY) return query;
  const kept = { ...params };
  const sizes = Object.keys(kept)
    .filter((key) => key !== 'page' && key !== 'per_page')
    .map((key) => ({ key, size: qs.stringify({ [key]: kept[key] }, QUERY_FORMAT).length }))
    .sort((a, b) => b.size - a.size);
  let length = query.length;
  for (const { key, size } of sizes) {
    if (length <= MAX_LINK_QUERY) break;
    delete kept[key];
    length -= size + 1;
  }
  return qs.stringify(kept, QUERY_FORMAT);
}

export function linkUrl(base: string, params: Record<string, unknown>, page: number): string {
  return `${base}?${linkQuery({ ...params, page })}`;
}

/**
 * The Link URL of each page: the params are stringified once, and each page's URL puts its
 * number in the place of the `page=1` member (the only top-level `page` member: qs encodes
 * nested keys' brackets and every `&` and `=` in values). A query near MAX_LINK_QUERY, where
 * the number's length may change what is left out, is stringified for each page instead.
 */
function pageLinks(baseUrl: string, params: Record<string, unknown>): (page: number) => string {
  const members = qs.stringify({ ...params, page: 1 }, QUERY_FORMAT);
  const at = members.length + 32 <= MAX_LINK_QUERY ? members.split('&').indexOf('page=1') : -1;
  if (at < 0) return (page) => linkUrl(baseUrl, params, page);
  const parts = members.split('&');
  const before = `${baseUrl}?${parts
    .slice(0, at)
    .map((part) => `${part}&`)
    .join('')}page=`;
  const after = parts
    .slice(at + 1)
    .map((part) => `&${part}`)
    .join('');
  return (page) => `${before}${page}${after}`;
}

export function paginationHeaders(request: PageRequest, total: number | null, baseUrl: string, params: Record<string, unknown>): Record<string, string> {
  const { page, perPage } = request;
  const linkUrlOf = pageLinks(baseUrl, { ...params, per_page: request.perPageSent });
  const counted = total !== null && total <= MAX_COUNT;
  const totalPages = counted ? Math.max(1, Math.ceil(total / perPage)) : null;
  const hasNext = total !== null ? page * perPage < total : false;
  const headers: Record<string, string> = {
    'X-Per-Page': String(perPage),
    'X-Page': String(page),
    'X-Next-Page': hasNext ? String(page + 1) : '',
    'X-Prev-Page': page > 1 && (totalPages === null || page <= totalPages) ? String(page - 1) : '',
  };
  if (counted) {
    headers['X-Total'] = String(total);
    headers['X-Total-Pages'] = String(totalPages);
  }
  const links: string[] = [];
  if (headers['X-Prev-Page']) links.push(`<${linkUrlOf(page - 1)}>; rel="prev"`);
  if (hasNext) links.push(`<${linkUrlOf(page + 1)}>; rel="next"`);
  links.push(`<${linkUrlOf(1)}>; rel="first"`);
  if (counted) links.push(`<${linkUrlOf(totalPages!)}>; rel="last"`);
  headers.Link = links.join(', ');
  return headers;
}

/** Pages' headers kept by what they are made of (see `keptPaginationHeaders`); past this many, the memo starts again. */
const PAGE_HEADERS_KEPT = 512;
/** Keys longer than this (a long query) are not kept, so the memo stays within about a megabyte. */
const MAX_HEADERS_KEY = 2048;

/**
 * `paginationHeaders`, kept by a key that names everything they are made of but the total
 * (the links' base, the request's URL, whose query and path give its params), and by the
 * total: a list read again and again is sent the same headers, without its params stringified
 * again. Without a key (params that came in a body, say), or with a long one, they are made afresh.
 */
export function keptPaginationHeaders(max = PAGE_HEADERS_KEPT) {
  const kept = new Map<string, Readonly<Record<string, string>>>();
  return (key: string | undefined, request: PageRequest, total: number | null, baseUrl: string, params: Record<string, unknown>) => {
    if (key === undefined || key.length > MAX_HEADERS_KEY) return paginationHeaders(request, total, baseUrl, params);
    const keyed = `${total}|${key}`;
    let headers = kept.get(keyed);
    if (!headers) {
      if (kept.size >= max) kept.clear();
      kept.set(keyed, (headers = Object.freeze(paginationHeaders(request, total, baseUrl, params))));
    }
    return headers;
  };
}

/** The total for a page, counting only when the page itself cannot tell. */
export async function totalFor(request: PageRequest, pageLength: number, count: () => Promise<number>): Promise<number> {
  if (pageLength > 0 && pageLength < request.perPage) return request.offset + pageLength;
  if (pageLength === 0 && request.page === 1) return 0;
  return count();
}

/** Keyset pages carry only `X-Per-Page` and a `rel="next"` link while more rows remain. */
export function keysetHeaders(request: PageRequest, next: Record<string, unknown> | null, baseUrl: string, params: Record<string, unknown>) {
  const headers: Record<string, string> = { 'X-Per-Page': String(request.perPage) };
  if (next) {
    const { page: _page, ...rest } = params;
    headers.Link = `<${baseUrl}?${linkQuery({ ...rest, per_page: request.perPageSent, ...next })}>; rel="next"`;
  }
  return headers;
}

/**
 * A page query can carry its own total: select it beside the rows as `<TOTAL_COLUMN>`
 * (an uncorrelated `(select count(*) ...)` subquery, or `count(*) over ()`), and read it here.
 * Only a page past the end, which has no rows to carry it, still needs `count`.
 */
export const TOTAL_COLUMN = 'total_count';

export async function totalFromRows(request: PageRequest, rows: readonly object[], count: () => Promise<number>): Promise<number> {
  const first = rows[0] as Record<string, unknown> | undefined;
  if (first && first[TOTAL_COLUMN] !== undefined && first[TOTAL_COLUMN] !== null) return Number(first[TOTAL_COLUMN]);
  return totalFor(request, rows.length, count);
}
