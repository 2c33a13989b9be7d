/** Seeds the server and turns scenario objects into concrete requests, skipping missing endpoints. */
import { randomBytes } from 'node:crypto';
import { ApiError, createApi } from './api.mjs';
import { seedBase } from '../scenarios.mjs';

/** `unique('x')` → `x-<run>-<n>`: distinct across requests and across runs. */
function uniqueNames() {
  const run = randomBytes(3).toString('hex');
  let counter = 0;
  return (prefix) => `${prefix}-${run}-${++counter}`;
}

export async function seedContext(baseUrl, token) {
  const api = createApi(baseUrl, token);
  const unique = uniqueNames();
  return { api, unique, ...(await seedBase(api, unique)) };
}

const resolveField = (field, context) => (typeof field === 'function' ? field(context) : field);

/**
 * A scenario ready for autocannon: `{ name, method, path, headers, body?, setupRequest? }`
 * with `path` under /api/v4; or `{ name, skipped: reason }`.
 */
export async function prepareScenario(scenario, baseContext) {
  let ctx = baseContext;
  try {
    if (scenario.seed) ctx = { ...baseContext, ...((await scenario.seed(baseContext.api, baseContext)) ?? {}) };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return { name: scenario.name, skipped: `seed answered 404 ${JSON.stringify(error.body)}` };
    throw error;
  }
  const body = resolveField(scenario.body, ctx);
  const request = {
    method: scenario.method,
    path: `/api/v4${resolveField(scenario.path, ctx)}`,
    headers: {
      'private-token': ctx.api.token,
      ...(body !== undefined || scenario.setupRequest ? { 'content-type': 'application/json' } : {}),
      ...(resolveField(scenario.headers, ctx) ?? {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  };
  const setupRequest = scenario.setupRequest ? (req) => scenario.setupRequest(req, ctx) : undefined;

  const probe = setupRequest ? setupRequest({ ...request }) : request;
  const response = await fetch(`${ctx.api.baseUrl}${probe.path}`, { method: probe.method, headers: probe.headers, body: probe.body });
  const text = await response.text();
  if (response.status === 404) return { name: scenario.name, skipped: `answered 404 ${text.slice(0, 80)}` };
  if (!response.ok) return { name: scenario.name, skipped: `first request answered ${response.status} ${text.slice(0, 120)}` };
  return { name: scenario.name, targets: scenario.targets, ...request, setupRequest, sampleBody: text };
}
