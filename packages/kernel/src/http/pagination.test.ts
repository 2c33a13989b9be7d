import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './errors.js';
import {
  keptPaginationHeaders,
  keysetHeaders,
  linkUrl,
  MAX_LINK_QUERY,
  paginationHeaders,
  readPageRequest,
  totalFor,
  totalFromRows,
  TOTAL_COLUMN,
  type PageRequest,
} from './pagination.js';

const BASE = 'http://example.test/api/v4/projects';

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('readPageRequest', () => {
  it('defaults to page 1 of 20', () => {
    expect(readPageRequest({})).toEqual({ page: 1, perPage: 20, offset: 0, perPageSent: 20 });
  });

  it('reads integer text and computes the offset', () => {
    expect(readPageRequest({ page: '3', per_page: ' 5 ' })).toEqual({ page: 3, perPage: 5, offset: 10, perPageSent: 5 });
  });

  it('clamps per_page to 100 but remembers what was sent', () => {
    expect(readPageRequest({ per_page: '500' })).toMatchObject({ perPage: 100, perPageSent: 500 });
  });

  it('rejects per_page=0', () => {
    const error = apiError(() => readPageRequest({ per_page: '0' }));
    expect(error.status).toBe(400);
    expect(error.body).toEqual({ error: 'per_page has a value not allowed' });
  });

  it.each(['abc', '1.5', ['2']])('rejects per_page=%j', (value) => {
    const error = apiError(() => readPageRequest({ per_page: value }));
    expect(error.status).toBe(400);
    expect(error.body).toEqual({ error: 'per_page is invalid' });
  });

  it('rejects a non-integer page', () => {
    expect(apiError(() => readPageRequest({ page: 'x' })).body).toEqual({ error: 'page is invalid' });
  });

  it('treats a page below 1 as page 1', () => {
    expect(readPageRequest({ page: '0' })).toMatchObject({ page: 1, offset: 0 });
    expect(readPageRequest({ page: '-4' })).toMatchObject({ page: 1, offset: 0 });
  });

  it('treats an empty value as absent', () => {
    expect(readPageRequest({ page: '', per_page: '' })).toMatchObject({ page: 1, perPage: 20 });
  });
});

const request = (page: number, perPage: number, perPageSent = perPage): PageRequest => ({ page, perPage, offset: (page - 1) * perPage, perPageSent });

describe('paginationHeaders', () => {
  it('writes every header on a middle page', () => {
    expect(paginationHeaders(request(2, 20), 45, BASE, {})).toEqual({
      'X-Per-Page': '20',
      'X-Page': '2',
      'X-Next-Page': '3',
      'X-Prev-Page': '1',
      'X-Total': '45',
      'X-Total-Pages': '3',
      Link: [
        `<${BASE}?page=1&per_page=20>; rel="prev"`,
        `<${BASE}?page=3&per_page=20>; rel="next"`,
        `<${BASE}?page=1&per_page=20>; rel="first"`,
        `<${BASE}?page=3&per_page=20>; rel="last"`,
      ].join(', '),
    });
  });

  it('sends empty next and prev at the ends', () => {
    const headers = paginationHeaders(request(1, 20), 20, BASE, {});
    expect(headers['X-Next-Page']).toBe('');
    expect(headers['X-Prev-Page']).toBe('');
    expect(headers.Link).toBe(`<${BASE}?page=1&per_page=20>; rel="first", <${BASE}?page=1&per_page=20>; rel="last"`);
  });

  it('reports one page for an empty list', () => {
    const headers = paginationHeaders(request(1, 20), 0, BASE, {});
    expect(headers['X-Total']).toBe('0');
    expect(headers['X-Total-Pages']).toBe('1');
  });

  it('has no prev page beyond the end', () => {
    const headers = paginationHeaders(request(5, 20), 30, BASE, {});
    expect(headers['X-Page']).toBe('5');
    expect(headers['X-Prev-Page']).toBe('');
    expect(headers['X-Next-Page']).toBe('');
    expect(headers.Link).toBe(`<${BASE}?page=1&per_page=20>; rel="first", <${BASE}?page=2&per_page=20>; rel="last"`);
  });

  it('leaves out totals and the last link above 10,000 rows', () => {
    const headers = paginationHeaders(request(2, 100), 10_001, BASE, {});
    expect(headers).not.toHaveProperty('X-Total');
    expect(headers).not.toHaveProperty('X-Total-Pages');
    expect(headers['X-Next-Page']).toBe('3');
    expect(headers['X-Prev-Page']).toBe('1');
    expect(headers.Link).not.toContain('rel="last"');
    expect(headers.Link).toContain('rel="next"');
  });

  it('still counts exactly 10,000 rows', () => {
    const headers = paginationHeaders(request(1, 100), 10_000, BASE, {});
    expect(headers['X-Total']).toBe('10000');
    expect(headers['X-Total-Pages']).toBe('100');
  });

  it('repeats every param in links, keys sorted, with the per_page sent', () => {
    const headers = paginationHeaders(request(1, 100, 250), 150, BASE, { sort: 'desc', id: 5, order_by: 'created_at', labels: ['a', 'b'] });
    expect(headers['X-Per-Page']).toBe('100');
    expect(headers.Link.split(', ')[0]).toBe(`<${BASE}?id=5&labels%5B%5D=a&labels%5B%5D=b&order_by=created_at&page=2&per_page=250&sort=desc>; rel="next"`);
  });

  it('encodes values in link URLs', () => {
    const headers = paginationHeaders(request(1, 20), 1, BASE, { search: 'a b&c' });
    expect(headers.Link).toBe(`<${BASE}?page=1&per_page=20&search=a+b%26c>; rel="first", <${BASE}?page=1&per_page=20&search=a+b%26c>; rel="last"`);
  });
});

describe('keptPaginationHeaders', () => {
  it('sends the headers made for a key and total again, and makes them afresh for another total', () => {
    const headersOf = keptPaginationHeaders(2);
    const first = headersOf('k', request(1, 20), 45, BASE, { sort: 'asc' });
    expect(headersOf('k', request(1, 20), 45, BASE, { sort: 'asc' })).toBe(first);
    expect(first).toEqual(paginationHeaders(request(1, 20), 45, BASE, { sort: 'asc' }));
    expect(Object.isFrozen(first)).toBe(true);
    const grown = headersOf('k', request(1, 20), 65, BASE, { sort: 'asc' });
    expect(grown['X-Total']).toBe('65');
    expect(grown.Link).toContain('page=4&per_page=20&sort=asc>; rel="last"');
  });

  it('makes them afresh without a key, with a long key, and starts again past its bound', () => {
    const headersOf = keptPaginationHeaders(2);
    const fresh = () => headersOf(undefined, request(1, 20), 1, BASE, {});
    expect(fresh()).not.toBe(fresh());
    const long = () => headersOf('x'.repeat(4096), request(1, 20), 1, BASE, {});
    expect(long()).not.toBe(long());
    const a = headersOf('a', request(1, 20), 1, BASE, {});
    headersOf('b', request(1, 20), 1, BASE, {});
    headersOf('c', request(1, 20), 1, BASE, {});
    expect(headersOf('a', request(1, 20), 1, BASE, {})).not.toBe(a);
  });
});

describe('totalFor', () => {
  it('does not count when the page is short', async () => {
    const count = vi.fn(async () => 999);
    await expect(totalFor(request(3, 20), 5, count)).resolves.toBe(45);
    expect(count).not.toHaveBeenCalled();
  });

  it('does not count an empty first page', async () => {
    const count = vi.fn(async () => 999);
    await expect(totalFor(request(1, 20), 0, count)).resolves.toBe(0);
    expect(count).not.toHaveBeenCalled();
  });

  it('counts when the page is full', async () => {
    const count = vi.fn(async () => 70);
    await expect(totalFor(request(1, 20), 20, count)).resolves.toBe(70);
    expect(count).toHaveBeenCalledOnce();
  });

  it('counts when a page past the first is empty', async () => {
    const count = vi.fn(async () => 30);
    await expect(totalFor(request(4, 20), 0, count)).resolves.toBe(30);
    expect(count).toHaveBeenCalledOnce();
  });
});

describe('keysetHeaders', () => {
  const request = { page: 1, perPage: 20, offset: 0, perPageSent: 20 };
  it('links to the next page with every param and the cursor, without page', () => {
    const headers = keysetHeaders(request, { id_after: 42 }, 'http://x/api/v4/projects', { pagination: 'keyset', order_by: 'id', sort: 'asc', page: 1 });
    expect(headers).toEqual({
      'X-Per-Page': '20',
      Link: '<http://x/api/v4/projects?id_after=42&order_by=id&pagination=keyset&per_page=20&sort=asc>; rel="next"',
    });
  });
  it('sends no Link at the end', () => {
    expect(keysetHeaders(request, null, 'http://x/api/v4/projects', {})).toEqual({ 'X-Per-Page': '20' });
  });
});

describe('totalFromRows', () => {
  const request = { page: 2, perPage: 20, offset: 20, perPageSent: 20 };
  it('reads the window total from the first row without counting', async () => {
    const count = vi.fn(async () => 99);
    expect(await totalFromRows(request, [{ [TOTAL_COLUMN]: '42' }], count)).toBe(42);
    expect(count).not.toHaveBeenCalled();
  });
  it('counts when a page past the end has no row to carry it', async () => {
    expect(await totalFromRows(request, [], async () => 7)).toBe(7);
  });
});

describe('Link header length', () => {
  const request = { page: 2, perPage: 20, offset: 20, perPageSent: 20 };

  it('leaves out params too long to repeat, keeping the rest and the page', () => {
    const headers = paginationHeaders(request, 100, 'https://forge.test/api/v4/projects/1/repository/commits', {
      ref_name: 'r'.repeat(15_000),
      path: 'docs',
      page: 2,
    });
    expect(headers.Link!.length).toBeLessThan(4 * (MAX_LINK_QUERY + 100));
    expect(headers.Link).toContain('path=docs');
    expect(headers.Link).toContain('page=3');
    expect(headers.Link).not.toContain('ref_name');
  });

  it('keeps every param of an ordinary request', () => {
    const headers = paginationHeaders(request, 100, 'https://forge.test/x', { search: 'a b', labels: ['x', 'y'], page: 2 });
    expect(headers.Link).toContain('labels%5B%5D=x&labels%5B%5D=y');
    expect(headers.Link).toContain('search=a+b');
  });

  it('bounds keyset links the same way', () => {
    const headers = keysetHeaders(request, { id_after: 5 }, 'https://forge.test/x', { search: 's'.repeat(10_000), page: 1 });
    expect(headers.Link!.length).toBeLessThan(MAX_LINK_QUERY + 100);
    expect(headers.Link).toContain('id_after=5');
  });

  it.each([
    ['no params', {}],
    ['nested and listed params', { search: 'a&page=9', labels: ['page', 'x=y'], not: { page: 3, labels: ['a'] }, 'page]': 'q', order_by: 'id', page: 2 }],
    ['params sorted before and after page', { a: 1, z: 'é ü', pagination: 'offset', per_page: 7, page: 2 }],
    ['a query just under the bound', { search: 's'.repeat(MAX_LINK_QUERY - 40), page: 2 }],
    ['a query just over the bound', { search: 's'.repeat(MAX_LINK_QUERY - 20), id: 1, page: 2 }],
  ])('links each page as stringifying its params would, with %s', (_name, params) => {
    const headers = paginationHeaders({ page: 2, perPage: 20, offset: 20, perPageSent: 20 }, 10_000, BASE, params);
    const linkParams = { ...params, per_page: 20 };
    expect(headers.Link).toBe(
      [1, 3, 1, 500].map((page, i) => `<${linkUrl(BASE, linkParams, page)}>; rel="${['prev', 'next', 'first', 'last'][i]}"`).join(', '),
    );
  });
});
