/**
 * The reference server's OpenAPI document: valid OpenAPI 3.1 by a maintained validator,
 * and holding every route of the table with every parameter it declares, so it cannot drift.
 */
import { openApiPath, type RouteInfo } from '@forgekit/kernel';
import { createTestApp } from '@forgekit/plugin-core/testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, describe, expect, it } from 'vitest';
import { allPlugins } from './plugins.js';

const app = await createTestApp({ plugins: allPlugins });
afterAll(() => app.close());

interface Parameter {
  name: string;
  in: string;
  required: boolean;
}
interface Operation {
  operationId: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
}

const document = app.kernel.openApi() as unknown as { paths: Record<string, Record<string, Operation>> };
const operationOf = (route: RouteInfo) => document.paths[openApiPath(route.path)]?.[route.method.toLowerCase()];

/** Every name the operation takes: path and query parameters (`a[]` is `a`) and body properties. */
function namesOf(operation: Operation): string[] {
  const parameters = (operation.parameters ?? []).map((parameter) => parameter.name.replace(/\[\]$/, ''));
  const body = Object.values(operation.requestBody?.content ?? {})[0]?.schema.properties ?? {};
  return [...parameters, ...Object.keys(body)];
}

describe('the OpenAPI document of the reference server', () => {
  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(JSON.stringify(document)));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has unique operation ids, and no two paths that differ only in parameter names (which OpenAPI forbids)', () => {
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    const shapes = new Map<string, string[]>();
    for (const path of Object.keys(document.paths)) {
      const shape = path.replace(/\{[^}]+\}/g, '{}');
      shapes.set(shape, [...(shapes.get(shape) ?? []), path]);
    }
    expect([...shapes.values()].filter((paths) => paths.length > 1)).toEqual([]);
  });

  it('has every route of the table, tagged with its plugin', () => {
    expect(app.kernel.routes.length).toBeGreaterThan(300);
    const missing = app.kernel.routes.filter((route) => !operationOf(route)).map((route) => `${route.method} ${route.path}`);
    expect(missing).toEqual([]);
    const untagged = app.kernel.routes.filter((route) => operationOf(route)?.tags[0] !== route.pluginId).map((route) => `${route.method} ${route.path}`);
    expect(untagged).toEqual([]);
    const operations = Object.values(document.paths).reduce((count, item) => count + Object.keys(item).length, 0);
    expect(operations).toBe(app.kernel.routes.length);
  });

  it('has every parameter each route declares, and every path parameter as required', () => {
    const drift = app.kernel.routes.flatMap((route) => {
      const operation = operationOf(route)!;
      const names = namesOf(operation);
      const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
      const absent = [...route.inputs, ...pathParams].filter((name) => !names.includes(name));
      const loose = (operation.parameters ?? []).filter((parameter) => parameter.in === 'path' && !parameter.required).map((parameter) => parameter.name);
      return [...absent, ...loose].map((name) => `${route.method} ${route.path}: ${name}`);
    });
    expect(drift).toEqual([]);
  });

  it('describes pagination on every paginated route', () => {
    const paginated = app.kernel.routes.filter((route) => route.paginated);
    expect(paginated.length).toBeGreaterThan(20);
    const without = paginated.filter((route) => {
      const ok = (operationOf(route) as unknown as { responses: Record<string, { headers?: Record<string, unknown> }> }).responses['200'];
      return !ok?.headers?.['X-Total'] || !ok.headers['X-Next-Page'] || !ok.headers.Link;
    });
    expect(without.map((route) => route.path)).toEqual([]);
  });

  /** A route's answer is described when it names its body's schema, answers no content, or answers something other than JSON. */
  const undescribed = (route: RouteInfo) => {
    const answer = route.response;
    if (!answer) return true;
    if (answer.status === 204 || (answer.contentType && answer.contentType !== 'application/json')) return false;
    return answer.schema === undefined || Object.keys(answer.schema).length === 0;
  };
  const pluginIds = [...new Set(app.kernel.routes.map((route) => route.pluginId))].sort();

  it.each(pluginIds)('describes the success answer of every route of %s', (pluginId) => {
    const routes = app.kernel.routes.filter((route) => route.pluginId === pluginId);
    expect(routes.filter(undescribed).map((route) => `${route.method} ${route.path}`)).toEqual([]);
  });
});
