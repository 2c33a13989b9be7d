import {
  badRequest,
  defineRoute,
  f,
  forbidden,
  frameworkError,
  insufficientScope,
  noContent,
  notFound,
  page,
  recordNotFound,
  params,
  reply,
  totalFor,
  unauthorized,
  unprocessable,
  type Database,
  type RequestContext,
  type Route,
} from '@forgekit/kernel';
import * as v from 'valibot';
import type { PersonalAccessToken, TokenService, UserService } from '../contracts.js';
import { addLengthErrors, TOKEN_LENGTHS } from '../shared/length-rules.js';
import { ADMIN_ONLY_SCOPES, ALL_SCOPES } from './scopes.js';
import { tokenSchema, tokenWithSecretSchema } from './token-schemas.js';
import { presentToken, tokensQuery } from './token-service.js';

const oneWeekFromNow = () => new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);

/** A scope list: an array or `a,b`; one unknown scope fails the whole param, as Grape reports it. */
const scopesField = (allowed: readonly string[]) =>
  v.pipe(
    f.commaList(),
    v.check((scopes: string[]) => scopes.every((scope) => allowed.includes(scope)), f.MESSAGES.values),
  );

const tokenInput = (allowed: readonly string[]) =>
  params({ name: f.string(), scopes: scopesField(allowed), description: f.optional(f.string()), expires_at: f.optional(f.date()) });

type TokenInput = { name: string; scopes: string[]; description?: string | null; expires_at?: string | null };

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `sort` names and the properties they order by. */
const SORT_PROPERTIES = { created: 'createdAt', expires: 'expiresAt', last_used: 'lastUsedAt', name: 'name' } as const;

/** The token model's own checks; GitLab reports them as one sentence with 422. */
function modelErrors(input: TokenInput, ownerIsAdmin: boolean): string | null {
  const lengths = addLengthErrors({}, TOKEN_LENGTHS, input);
  const errors = Object.entries(lengths).flatMap(([attribute, messages]) => messages.map((message) => `${capitalize(attribute)} ${message}`));
  if (input.scopes.length === 0) errors.push("Scopes can't be blank");
  else if (!ownerIsAdmin && input.scopes.some((scope) => ADMIN_ONLY_SCOPES.has(scope))) errors.push('Scopes can only contain available scopes');
  return errors.length > 0 ? errors.join(' and ') : null;
}

export function tokenRoutes(database: Database, tokens: TokenService, users: UserService): Route[] {
  /**
   * `self` is the presenting token. Otherwise only its owner or an admin may use one;
   * only admins learn that a token does not exist.
   */
  async function findVisible(ctx: RequestContext, id: string): Promise<PersonalAccessToken> {
    if (id === 'self') return (await tokens.findById(ctx.credential!.tokenId))!;
    const numeric = f.coerceInteger(id);
    if (typeof numeric !== 'number') throw frameworkError(400, 'id is invalid');
    const row = await tokens.findById(numeric);
    if (row && (ctx.user!.isAdmin || row.userId === ctx.user!.id)) return row;
    throw ctx.user!.isAdmin ? notFound() : unauthorized();
  }

  async function issue(userId: number, input: TokenInput, ownerIsAdmin: boolean) {
    const problem = modelErrors(input, ownerIsAdmin);
    if (problem) throw unprocessable(problem);
    const { token, secret } = await tokens.create({
      userId,
      name: input.name,
      scopes: input.scopes,
      description: input.description ?? null,
      expiresAt: input.expires_at ?? null,
    });
    return reply(201, presentToken(token, secret));
  }

  return [
    defineRoute({
      method: 'POST',
      // `:id`, not `:user_id`: the router needs one placeholder name per position under /users.
      path: '/users/:id/personal_access_tokens',
      auth: 'admin',
      response: { schema: tokenWithSecretSchema, errors: [422] },
      input: tokenInput(ALL_SCOPES),
      async handler(ctx, input) {
        const userId = f.coerceInteger(ctx.params.id);
        if (typeof userId !== 'number') throw frameworkError(400, 'user_id is invalid');
        const user = await users.findById(userId);
        if (!user) throw notFound('User');
        return issue(user.id, input, user.admin);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/user/personal_access_tokens',
      response: { schema: tokenWithSecretSchema, errors: [422] },
      input: tokenInput(['k8s_proxy', 'self_rotate']),
      handler: (ctx, input) => issue(ctx.user!.id, input, ctx.user!.isAdmin),
    }),
    defineRoute({
      method: 'GET',
      path: '/personal_access_tokens',
      paginated: true,
      response: { schema: tokenSchema },
      input: params({
        user_id: f.optional(f.id()),
        state: f.optional(f.values(['active', 'inactive'])),
        revoked: f.optional(f.boolean()),
        search: f.optional(f.string()),
        created_before: f.optional(f.datetime()),
        created_after: f.optional(f.datetime()),
        last_used_before: f.optional(f.datetime()),
        last_used_after: f.optional(f.datetime()),
        expires_before: f.optional(f.date()),
        expires_after: f.optional(f.date()),
        sort: f.optional(f.values(['created_asc', 'created_desc', 'expires_asc', 'expires_desc', 'last_used_asc', 'last_used_desc', 'name_asc', 'name_desc'])),
      }),
      async handler(ctx, input) {
        const isAdmin = ctx.user!.isAdmin;
        if (!isAdmin && input.user_id && input.user_id !== ctx.user!.id) throw unauthorized();
        const today = new Date().toISOString().slice(0, 10);
        const query = tokensQuery(database).where((q) => {
          if (!isAdmin) q.where('userId', ctx.user!.id);
          else if (input.user_id) q.where('userId', input.user_id);
          if (input.state === 'active') q.where('revoked', false).where((e) => e.whereNull('expiresAt').orWhere('expiresAt', '>', today));
          if (input.state === 'inactive') q.where((e) => e.where('revoked', true).orWhere('expiresAt', '<=', today));
          if (input.revoked !== undefined && input.revoked !== null) q.where('revoked', input.revoked);
          if (input.search) q.whereContains(['name'], input.search);
          if (input.created_before) q.where('createdAt', '<', input.created_before);
          if (input.created_after) q.where('createdAt', '>', input.created_after);
          if (input.last_used_before) q.where('lastUsedAt', '<', input.last_used_before);
          if (input.last_used_after) q.where('lastUsedAt', '>', input.last_used_after);
          if (input.expires_before) q.where('expiresAt', '<', input.expires_before);
          if (input.expires_after) q.where('expiresAt', '>', input.expires_after);
        });
        const sort = input.sort ?? 'created_desc';
        const direction = sort.endsWith('_asc') ? 'asc' : 'desc';
        const property = SORT_PROPERTIES[sort.replace(/_(asc|desc)$/, '') as keyof typeof SORT_PROPERTIES];
        const ordered = query.clone().orderBy(property, direction).orderBy('id', direction).limit(ctx.page.perPage).offset(ctx.page.offset);
        const rows = (await database.rows(ordered)) as PersonalAccessToken[];
        const total = await totalFor(ctx.page, rows.length, () => database.count(query));
        return page(
          rows.map((row) => presentToken(row)),
          total,
        );
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/personal_access_tokens/:id',
      scopes: ['read_user'],
      // `id is invalid` when it is neither a number nor `self`.
      response: { schema: tokenSchema, errors: [400] },
      async handler(ctx) {
        return presentToken(await findVisible(ctx, ctx.params.id!));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/personal_access_tokens/:id/rotate',
      scopes: ['self_rotate'],
      response: { status: 200, schema: tokenWithSecretSchema },
      input: params({ expires_at: f.optional(f.date()) }),
      async handler(ctx, input) {
        const self = ctx.params.id === 'self';
        if (!self && !ctx.credential!.scopes.includes('api')) throw insufficientScope(['api']);
        const row = await findVisible(ctx, ctx.params.id!);
        if (self && !ctx.credential!.scopes.some((scope) => scope === 'api' || scope === 'self_rotate')) throw forbidden();
        if (!presentToken(row).active) throw unauthorized();
        const { token: successor, secret } = await tokens.rotate(row, input.expires_at ?? oneWeekFromNow());
        return reply(200, presentToken(successor, secret));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/personal_access_tokens/:id',
      response: { status: 204, errors: [400] },
      async handler(ctx) {
        const id = ctx.params.id!;
        if (id !== 'self' && typeof f.coerceInteger(id) !== 'number') throw frameworkError(400, 'id is invalid');
        const row = id === 'self' ? await tokens.findById(ctx.credential!.tokenId) : await tokens.findById(Number(id));
        if (!row) throw recordNotFound();
        // GitLab's revoke service refuses someone else's token as a bad request.
        if (row.userId !== ctx.user!.id && !ctx.user!.isAdmin) throw badRequest();
        await tokens.revoke(row.id);
        return noContent();
      },
    }),
  ];
}
