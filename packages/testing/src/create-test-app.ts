/**
 * The real kernel on in-memory SQLite (or a fresh PostgreSQL database), the real
 * migrations, the fixtures a seed function makes, and requests with no port. Plugins' tests
 * take it with core and its seeded users from `@forgekit/plugin-core/testing`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKernel, type ForgePlugin, type Kernel, type KernelConfigInput } from '@forgekit/kernel';
import { createTestDatabase } from './test-database.js';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  /** A token secret, or the name of one of the fixtures' `tokens`. */
  token?: string | null;
  query?: Record<string, string | number | boolean | (string | number)[]>;
  body?: unknown;
  /** `json` (default), `form` (urlencoded), or a ready FormData for multipart. */
  as?: 'json' | 'form';
  headers?: Record<string, string>;
}

/** What a seed function may give: tokens by name let requests name them. */
export interface BaseFixtures {
  readonly tokens?: Readonly<Record<string, string>>;
}

export interface TestKernelApp {
  readonly kernel: Kernel;
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  get<T = any>(path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  post<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse<T>>;
  put<T = any>(path: string, body?: unknown, options?: RequestOptions): Promise<TestResponse<T>>;
  delete<T = any>(path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  close(): Promise<void>;
}

export interface TestKernelOptions<F extends BaseFixtures> {
  plugins: readonly ForgePlugin<any>[];
  /** Extra kernel config (plugin sections under `plugins`). */
  config?: Partial<KernelConfigInput>;
  /** Makes the fixtures once the kernel started; none without it. */
  seed?: (kernel: Kernel) => Promise<F>;
}

function encodeForm(value: unknown, prefix: string, out: URLSearchParams) {
  if (Array.isArray(value)) for (const item of value) encodeForm(item, `${prefix}[]`, out);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) encodeForm(v, `${prefix}[${k}]`, out);
  else if (value !== undefined) out.append(prefix, value === null ? '' : String(value));
}

/** Boots `plugins` on a fresh database, seeds the fixtures, and answers requests in process. */
export async function createTestKernelApp<F extends BaseFixtures = BaseFixtures>(options: TestKernelOptions<F>): Promise<TestKernelApp & F> {
  const dataDir = await mkdtemp(join(tmpdir(), 'forgekit-test-'));
  const { plugins } = options;
  const database = await createTestDatabase(undefined, { plugins });
  let kernel: Kernel;
  try {
    kernel = await createKernel({
      plugins,
      config: { dataDir, databaseUrl: database.url, logLevel: 'silent', externalUrl: 'http://localhost', ...options.config },
    });
    await kernel.start();
  } catch (error) {
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const fixtures = options.seed ? await options.seed(kernel) : ({} as F);

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse<T>> {
    const url = new URL(path.startsWith('/') ? `http://localhost${path}` : path);
    for (const [key, value] of Object.entries(opts.query ?? {})) {
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(`${key}[]`, String(item));
      else url.searchParams.append(key, String(value));
    }
    const headers = new Headers(opts.headers);
    const token = opts.token === undefined ? undefined : opts.token === null ? null : (fixtures.tokens?.[opts.token] ?? opts.token);
    if (token) headers.set('PRIVATE-TOKEN', token);
    let body: RequestInit['body'];
    if (opts.body instanceof FormData) body = opts.body;
    else if (opts.body !== undefined && opts.as === 'form') {
      const form = new URLSearchParams();
      for (const [key, value] of Object.entries(opts.body as Record<string, unknown>)) encodeForm(value, key, form);
      body = form;
    } else if (opts.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(opts.body);
    }
    const response = await kernel.fetch(new Request(url, { method, headers, body }));
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  return {
    ...fixtures,
    kernel,
    request,
    get: (path, opts) => request('GET', path, opts),
    post: (path, body, opts) => request('POST', path, { ...opts, body }),
    put: (path, body, opts) => request('PUT', path, { ...opts, body }),
    delete: (path, opts) => request('DELETE', path, opts),
    async close() {
      await kernel.stop();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
