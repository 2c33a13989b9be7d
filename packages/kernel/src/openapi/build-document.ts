/**
 * The OpenAPI 3.1 document of a kernel's route table: paths, parameters, request bodies,
 * auth, pagination headers and the error answers the kernel itself gives, built from what
 * each mounted route declares, so it cannot drift from the routes.
 */
import { STATUS_CODES } from 'node:http';
import type { GroupRule } from '../http/params.js';
import type { RouteInfo } from '../kernel.js';
import { fieldSchema, objectSchema, type JsonSchema } from './field-schema.js';
import { ruleSchema } from './rule-schema.js';

export type OpenApiDocument = { readonly openapi: '3.1.0' } & Readonly<Record<string, unknown>>;

export interface DocumentInfo {
  title: string;
  version: string;
  description?: string;
}

type Operation = Record<string, unknown>;

/** `:id` → `{id}`, as OpenAPI writes a path parameter. */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
const pathParamNames = (path: string) => [...path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!);

const PAGINATION_HEADERS: Record<string, string> = {
  'X-Total': 'How many items the list holds (absent past the counting limit)',
  'X-Total-Pages': 'How many pages the list fills (absent past the counting limit)',
  'X-Per-Page': 'Items per page',
  'X-Page': 'This page',
  'X-Next-Page': 'The next page, or empty on the last one',
  'X-Prev-Page': 'The previous page, or empty on the first one',
  Link: 'RFC 8288 links to the first, previous, next and last pages',
};

const PAGE_PARAMS: Record<string, JsonSchema> = {
  page: { type: 'integer', minimum: 1, default: 1 },
  per_page: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
};

const errorRef = (name: string) => ({ $ref: `#/components/responses/${name}` });

/** The answers the kernel gives on any route of a kind, whatever its handler does. */
const COMPONENTS = {
  securitySchemes: {
    private_token: { type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN', description: 'A personal, project, group or impersonation access token' },
    private_token_param: { type: 'apiKey', in: 'query', name: 'private_token', description: 'The same token as a query parameter' },
    access_token_param: { type: 'apiKey', in: 'query', name: 'access_token', description: 'An OAuth access token as a query parameter' },
    bearer: { type: 'http', scheme: 'bearer', description: 'An access token or OAuth token in `Authorization: Bearer`' },
    basic: { type: 'http', scheme: 'basic', description: 'Any username, with an access token as the password (git over HTTP)' },
  },
  schemas: {
    MessageError: {
      type: 'object',
      description: 'GitLab\'s `render_api_error!` body: a text, a list of texts, or field names with their messages (`{"error": ...}` on a 429)',
      properties: {
        message: {
          anyOf: [
            { type: 'string' },
            { type: 'array', items: { type: 'string' } },
            { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] } },
          ],
        },
      },
      required: ['message'],
    },
    FrameworkError: {
      type: 'object',
      description: 'The framework layer\'s body: invalid params ("name is missing"), unknown routes, and model errors GitLab sends as a list',
      properties: { error: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] } },
      required: ['error'],
    },
    TokenError: {
      type: 'object',
      description: 'An OAuth-style answer to a revoked or expired token, or one without the scope the route needs',
      properties: { error: { type: 'string' }, error_description: { type: 'string' }, scope: { type: 'string' } },
      required: ['error', 'error_description'],
    },
  },
  responses: {
    BadRequest: {
      description: 'Invalid parameters, or a malformed request',
      content: { 'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/FrameworkError' }, { $ref: '#/components/schemas/MessageError' }] } } },
    },
    Unauthorized: {
      description: 'No valid token (`401 Unauthorized`), or a revoked or expired one',
      headers: { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'Sent with a revoked or expired token' } },
      content: { 'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/MessageError' }, { $ref: '#/components/schemas/TokenError' }] } } },
    },
    Forbidden: {
      description: 'The caller may not do this, or the token lacks the scope',
      content: { 'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/MessageError' }, { $ref: '#/components/schemas/TokenError' }] } } },
    },
    NotFound: {
      description: 'No such resource, or one the caller may not see',
      content: { 'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/MessageError' }, { $ref: '#/components/schemas/FrameworkError' }] } } },
    },
    PayloadTooLarge: {
      description: 'The body is larger than the route takes',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/MessageError' } } },
    },
    InternalError: {
      description: '`500 Internal Server Error`',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/MessageError' } } },
    },
  },
};

const TOKEN_SCHEMES = ['private_token', 'bearer', 'private_token_param', 'access_token_param'];

function security(route: RouteInfo): Record<string, string[]>[] {
  if (route.auth === 'none') return [];
  const schemes = [...TOKEN_SCHEMES, ...(route.basicAuth ? ['basic'] : [])].map((name) => ({ [name]: [] }));
  // An empty requirement: anonymous callers are allowed too.
  return route.auth === 'optional' ? [{}, ...schemes] : schemes;
}

const takesBody = (route: RouteInfo) => route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';

/** A query parameter as Rack reads it: lists as `name[]=a&name[]=b` (or `a,b`), hashes as `name[key]=value`. */
function queryParameter(name: string, route: RouteInfo): Record<string, unknown> {
  const field = route.fields[name];
  const schema = fieldSchema(field);
  const base = { in: 'query', required: field?.required ?? false, schema };
  if (field?.type === 'array' && field.commaSeparated) return { name, ...base, style: 'form', explode: false };
  if (field?.type === 'array') return { name: `${name}[]`, ...base, style: 'form', explode: true };
  if (field?.type === 'hash') return { name, ...base, style: 'deepObject', explode: true };
  return { name, ...base };
}

function parameters(route: RouteInfo): Record<string, unknown>[] {
  const inPath = pathParamNames(route.path);
  const path = inPath.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: name in route.fields ? fieldSchema(route.fields[name]) : { type: 'string' },
  }));
  const inQuery = takesBody(route) ? [] : route.inputs.filter((name) => !inPath.includes(name));
  const query = inQuery.map((name) => queryParameter(name, route));
  const paging = route.paginated
    ? Object.entries(PAGE_PARAMS)
        .filter(([name]) => !route.inputs.includes(name))
        .map(([name, schema]) => ({ name, in: 'query', required: false, schema }))
    : [];
  return [...path, ...query, ...paging];
}

const RULE_WORDS: Record<GroupRule['kind'], string> = {
  mutuallyExclusive: 'At most one of',
  atLeastOneOf: 'At least one of',
  exactlyOneOf: 'Exactly one of',
  allOrNoneOf: 'All or none of',
};

/** What the schema cannot say of a route, in words: its group rules, who may call it, and the token scopes it takes. */
function description(route: RouteInfo): string | undefined {
  const lines = route.rules.map((rule) => `${RULE_WORDS[rule.kind]}: ${rule.keys.map((key) => `\`${key}\``).join(', ')}.`);
  if (route.auth === 'admin') lines.push('Administrators only.');
  if (route.scopes === 'handler') lines.push('The route checks the token scopes itself.');
  else if (route.scopes.length > 0) lines.push(`Token scopes: ${route.scopes.map((scope) => `\`${scope}\``).join(', ')}.`);
  return lines.length > 0 ? lines.join('\n\n') : undefined;
}

function requestBody(route: RouteInfo): Record<string, unknown> | undefined {
  if (route.streamBody) return { content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } };
  if (!takesBody(route)) return undefined;
  const inPath = new Set(pathParamNames(route.path));
  const fields = Object.fromEntries(Object.entries(route.fields).filter(([name]) => !inPath.has(name)));
  if (Object.keys(fields).length === 0) return undefined;
  const rules = route.rules.filter((rule) => rule.keys.every((key) => !inPath.has(key)));
  const schema = rules.length > 0 ? { ...objectSchema(fields), allOf: rules.map(ruleSchema) } : objectSchema(fields);
  const demands = Array.isArray(schema.required) || rules.some((rule) => rule.kind === 'atLeastOneOf' || rule.kind === 'exactlyOneOf');
  const media = route.uploads ? ['multipart/form-data', 'application/json'] : ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];
  return {
    required: demands,
    content: Object.fromEntries(media.map((type) => [type, { schema }])),
  };
}

function successResponse(route: RouteInfo): [string, Record<string, unknown>] {
  const declared = route.response;
  const status = declared?.status ?? (route.method === 'POST' ? 201 : 200);
  if (status === 204) return ['204', { description: 'No content' }];
  const item = declared?.schema ?? {};
  const schema = route.paginated ? { type: 'array', items: item } : item;
  const headers = route.paginated
    ? Object.fromEntries(Object.entries(PAGINATION_HEADERS).map(([name, description]) => [name, { description, schema: { type: 'string' } }]))
    : undefined;
  const contentType = declared?.contentType ?? 'application/json';
  return [
    String(status),
    { description: route.paginated ? 'A page of the list' : 'Success', ...(headers ? { headers } : {}), content: { [contentType]: { schema } } },
  ];
}

/** A success other than the route's main one: its body's schema, or no body. */
function alternativeResponse(status: number, schema: JsonSchema | null, contentType: string): Record<string, unknown> {
  const description = STATUS_CODES[status] ?? 'Success';
  return schema === null ? { description } : { description, content: { [contentType]: { schema } } };
}

const HANDLER_ERROR_BODIES = [{ $ref: '#/components/schemas/MessageError' }, { $ref: '#/components/schemas/FrameworkError' }];

/** The bodies the kernel's own answer for a status may hold (none when the kernel gives no such answer on the route). */
function kernelErrorBodies(answer: unknown): JsonSchema[] {
  const ref = (answer as { $ref?: string } | undefined)?.$ref;
  const name = ref?.slice('#/components/responses/'.length) as keyof typeof COMPONENTS.responses | undefined;
  const schema = name ? (COMPONENTS.responses[name]?.content['application/json'].schema as JsonSchema | undefined) : undefined;
  if (!schema) return [];
  return Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]) : [schema];
}

/**
 * A refusal the handler itself gives, with GitLab's `{"message": ...}` body (or the framework's
 * `{"error": ...}`), beside the bodies of the kernel's own answer for that status, if any.
 */
function handlerError(status: number, kernelAnswer: unknown) {
  const bodies = [...kernelErrorBodies(kernelAnswer), ...HANDLER_ERROR_BODIES];
  const unique = bodies.filter((body, index) => bodies.findIndex((other) => other.$ref === body.$ref) === index);
  return { description: STATUS_CODES[status] ?? 'Error', content: { 'application/json': { schema: { anyOf: unique } } } };
}

function responses(route: RouteInfo): Record<string, unknown> {
  const answers: Record<string, unknown> = Object.fromEntries([successResponse(route)]);

  if (route.inputs.length > 0 || route.paginated) answers['400'] = errorRef('BadRequest');
  if (route.auth !== 'none') {
    answers['401'] = errorRef('Unauthorized');
    answers['403'] = errorRef('Forbidden');
  }
  answers['404'] = errorRef('NotFound');
  if (takesBody(route) || route.streamBody) answers['413'] = errorRef('PayloadTooLarge');
  answers['500'] = errorRef('InternalError');
  // What the route declares comes last: a refusal of its own joins the kernel's description of that status.
  for (const [status, schema] of Object.entries(route.response?.alternatives ?? {})) {
    answers[status] = alternativeResponse(Number(status), schema, route.response?.contentType ?? 'application/json');
  }
  for (const status of route.response?.errors ?? []) answers[String(status)] = handlerError(status, answers[String(status)]);
  return answers;
}

const operationId = (route: RouteInfo) =>
  `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_match, next: string | undefined) => (next ? next.toUpperCase() : ''))}`;

function operation(route: RouteInfo): Operation {
  const body = requestBody(route);
  const params = parameters(route);
  const text = description(route);
  return {
    operationId: operationId(route),
    tags: [route.pluginId],
    ...(text ? { description: text } : {}),
    security: security(route),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: responses(route),
  };
}

export function buildOpenApiDocument(routes: readonly RouteInfo[], info: DocumentInfo): OpenApiDocument {
  const paths: Record<string, Record<string, Operation>> = {};
  for (const route of routes) {
    const item = (paths[openApiPath(route.path)] ??= {});
    item[route.method.toLowerCase()] = operation(route);
  }
  const tags = [...new Set(routes.map((route) => route.pluginId))].map((name) => ({ name }));
  return { openapi: '3.1.0', info, tags, paths, components: COMPONENTS };
}
