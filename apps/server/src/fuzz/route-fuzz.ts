/**
 * Every route of the reference server, called with generated hostile input (query strings,
 * form, JSON and multipart bodies, path params) as an anonymous caller, a developer and the
 * admin. No answer may be a 5xx, the server must stay ready, and no prototype may change.
 *
 * The routes are dealt round-robin to `SHARDS` test files (`route-fuzz-<n>.test.ts`), each
 * with its own app and fixtures, so that the suite's workers share the fuzzing instead of one
 * worker running all of it. A route's cases depend only on its own seed, not on its shard.
 *
 * FORGEKIT_FUZZ_RUNS (cases per route) and FORGEKIT_FUZZ_SEED make a larger or different run.
 */
import type { RouteInfo } from '@forgekit/kernel';
import { createTestApp } from '@forgekit/plugin-core/testing';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { allPlugins } from '../plugins.js';
import { seedFuzzFixtures } from './fuzz-fixtures.js';
import { body, INTEGER_BOUNDS, inputPairs, integerBoundBody, pathValue } from './hostile-values.js';
import { fold, renderCase, type FuzzCase } from './render-request.js';
import { prototypeChanges } from './prototype-guard.js';

const RUNS = Number(process.env.FORGEKIT_FUZZ_RUNS || 10);
const SEED = Number(process.env.FORGEKIT_FUZZ_SEED || 20261124);
const ANSWER_WITHIN_MS = 20_000;
/** How many `route-fuzz-<n>.test.ts` files share the routes. */
export const SHARDS = 4;

/**
 * Reads first, then writes, then deletes (deepest first), so that most routes meet the
 * seeded records before a delete removes them. Routes that differ only in how many
 * placeholders stand in a row (git over HTTP takes 1 to 20 namespace levels) are fuzzed
 * for the first three lengths.
 */
function fuzzedRoutes(routes: readonly RouteInfo[]): RouteInfo[] {
  const seen = new Map<string, number>();
  const kept = routes.filter((route) => {
    const shape = `${route.method} ${route.path.replace(/(\/:[^/]+)+/g, '/*')}`;
    seen.set(shape, (seen.get(shape) ?? 0) + 1);
    return seen.get(shape)! <= 3;
  });
  const phase = (route: RouteInfo) => (route.method === 'GET' ? 0 : route.method === 'DELETE' ? 2 : 1);
  const depth = (route: RouteInfo) => route.path.split('/').length;
  return kept
    .map((route, index) => ({ route, index }))
    .sort((a, b) => phase(a.route) - phase(b.route) || (phase(a.route) === 2 ? depth(b.route) - depth(a.route) : 0) || a.index - b.index)
    .map(({ route }) => route);
}

function stackHead(entry: unknown): string {
  const { entry: fields, message } = entry as { entry: { err?: unknown }; message?: string };
  const error = fields?.err;
  const text = error instanceof Error ? (error.stack ?? String(error)) : JSON.stringify(fields);
  const lines = text.split('\n').filter((line) => !line.includes('(<anonymous>)') && !line.includes('node_modules'));
  return `${message ?? ''}: ${fold(lines.slice(0, 5).join('\n'))}`;
}

/** A route's own seed, so that one route's cases do not depend on how many routes come before it. */
function seedOf(route: RouteInfo): number {
  let hash = SEED | 0;
  for (const char of `${route.method} ${route.path}`) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

/** Fuzzes every `SHARDS`th route, starting with the `shard`th (1-based). */
export async function fuzzRouteShard(shard: number): Promise<void> {
  const app = await createTestApp({
    plugins: allPlugins,
    config: { plugins: { repositories: { storages: { second: 'second-storage' } } } },
  });
  const fixtures = await seedFuzzFixtures(app);

  /** What the server logged while answering: a 500's stack is the first thing a fix needs. */
  const logged: unknown[] = [];
  (app.kernel.log as unknown as { error: (entry: unknown, message?: string) => void }).error = (entry, message) => logged.push({ entry, message });

  const callers: [string, string | null][] = [
    ['anonymous', null],
    ['developer', app.tokens.developer],
    ['admin', app.tokens.admin],
  ];
  const knownNames = [...new Set(app.kernel.routes.flatMap((route) => route.inputs))];

  function caseFor(route: RouteInfo): fc.Arbitrary<FuzzCase> {
    const segments = route.path.split('/');
    const values = segments.flatMap((segment, index) =>
      segment.startsWith(':') ? [pathValue(fixtures.realValues(segment.slice(1), segments[index - 1]!))] : [],
    );
    return fc.record({
      method: route.method === 'GET' ? fc.constantFrom('GET', 'GET', 'GET', 'HEAD') : fc.constant(route.method),
      path: fc.constant(route.path),
      pathValues: fc.tuple(...values),
      query: inputPairs(route.method === 'GET' ? route.inputs : [], knownNames, fixtures.realTexts),
      body: route.method === 'GET' ? fc.constant({ kind: 'none' as const }) : body(route.inputs, knownNames, fixtures.realTexts),
    });
  }

  /** A case that sends one integer field at a bound, the other declared fields plausible, to the route's real records. */
  function integerBoundCase(route: RouteInfo): fc.Arbitrary<FuzzCase> {
    const segments = route.path.split('/');
    const values = segments.flatMap((segment, index) =>
      segment.startsWith(':') ? [fc.constantFrom(...fixtures.realValues(segment.slice(1), segments[index - 1]!)).map((raw) => ({ raw }))] : [],
    );
    const read = route.method === 'GET';
    const bound = integerBoundBody(route.fields, fixtures.realTexts, !read);
    return fc.record({
      method: fc.constant(route.method),
      path: fc.constant(route.path),
      pathValues: fc.tuple(...values),
      // A read takes the integer in its query string.
      query: read ? bound.map((b) => (b.kind === 'form' ? b.pairs : [])) : fc.constant([]),
      body: read ? fc.constant({ kind: 'none' as const }) : bound,
    });
  }

  async function answer(request: Request): Promise<Response> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS);
    });
    try {
      return await Promise.race([app.kernel.fetch(request), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async function sendToEveryCaller(route: RouteInfo, fuzzCase: FuzzCase) {
    for (const [who, token] of callers) {
      const rendered = renderCase(fuzzCase, token);
      const since = logged.length;
      const where = `${route.method} ${route.path} (${route.pluginId}) as ${who}`;
      let response: Response;
      try {
        response = await answer(rendered.request);
      } catch (error) {
        throw new Error(`${where} gave no answer: ${String(error)}\n${rendered.describe()}`);
      }
      const text = await response.text();
      if (response.status >= 500) {
        const stacks = logged.slice(since).map(stackHead).join('\n');
        throw new Error(`${where} answered ${response.status}\nrequest:\n${rendered.describe()}\nresponse: ${fold(text)}\nlogged: ${stacks || '(nothing)'}`);
      }
      const changed = prototypeChanges();
      if (changed.length > 0) throw new Error(`${where} changed ${changed.join(', ')}\nrequest:\n${rendered.describe()}`);
    }
  }

  const routes = fuzzedRoutes(app.kernel.routes).filter((_, index) => index % SHARDS === shard - 1);

  describe(`route fuzzer, shard ${shard} of ${SHARDS} (${RUNS} cases per route, seed ${SEED})`, () => {
    afterAll(() => app.close());

    it('has routes to fuzz', () => {
      expect(routes.length).toBeGreaterThan(0);
    });

    it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
      '%s',
      async (_title, route) => {
        await fc.assert(
          fc.asyncProperty(caseFor(route), (fuzzCase) => sendToEveryCaller(route, fuzzCase)),
          { numRuns: RUNS, seed: seedOf(route) },
        );
        if (route.method !== 'GET') await fixtures.repair();
        expect((await app.get('/-/readiness')).status, `/-/readiness after ${route.method} ${route.path}`).toBe(200);
      },
      30_000 + RUNS * 1_000,
    );

    const integerFields = (route: RouteInfo) =>
      Object.values(route.fields).filter((field) => field?.type === 'integer' || (field?.type === 'array' && field.items?.type === 'integer')).length;
    const withIntegers = routes.filter((route) => integerFields(route) > 0);
    it.each(withIntegers.map((route) => [`${route.method} ${route.path}`, route] as const))(
      '%s with integers at the ends of their columns',
      async (_title, route) => {
        // Enough cases that every field meets every bound in each of its three forms, on average.
        const runs = Math.max(RUNS, integerFields(route) * INTEGER_BOUNDS.length * 3);
        await fc.assert(
          fc.asyncProperty(integerBoundCase(route), (fuzzCase) => sendToEveryCaller(route, fuzzCase)),
          { numRuns: runs, seed: seedOf(route) + 1 },
        );
        if (route.method !== 'GET') await fixtures.repair();
        expect((await app.get('/-/readiness')).status, `/-/readiness after ${route.method} ${route.path}`).toBe(200);
      },
      60_000 + RUNS * 1_000,
    );

    it('leaves the server ready and every prototype as it was', async () => {
      expect((await app.get('/-/readiness')).status).toBe(200);
      expect(prototypeChanges()).toEqual([]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });
}
