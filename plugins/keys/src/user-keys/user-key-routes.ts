/**
 * `/user/keys` (the caller's own keys) and `/users/:id/keys` (anyone's, read by anyone;
 * written by administrators).
 */
import { created, defineRoute, f, noContent, notFound, page, params, totalFor, type RequestContext, type Route } from '@forgekit/kernel';
import type { UserService } from '@forgekit/plugin-core/contracts';
import type { CoreUser } from '../shared/core-fields.js';
import { sshKeyBody } from '../shared/key-presenter.js';
import { sshKeySchema } from '../shared/key-schemas.js';
import type { StoredKey } from '../shared/key-store.js';
import type { UserKeyService } from './user-key-service.js';

const USAGE_TYPES = ['auth_and_signing', 'auth', 'signing'] as const;

/** `POST` params in GitLab's order, so missing ones are named as Grape names them. */
const keyParams = {
  key: f.string(),
  title: f.string(),
  expires_at: f.optional(f.datetime()),
  usage_type: f.optional(f.values(USAGE_TYPES), 'auth_and_signing'),
};

export function userKeyRoutes(service: UserKeyService, users: UserService): Route[] {
  const present = (ctx: RequestContext, user: CoreUser) => (key: StoredKey) => sshKeyBody(key, user.name, ctx.externalUrl);

  async function userOr404(idOrUsername: string): Promise<CoreUser> {
    const user = await users.findByIdOrUsername(idOrUsername);
    if (!user) throw notFound('User');
    return user;
  }
  async function callerOf(ctx: RequestContext): Promise<CoreUser> {
    const user = await users.findById(ctx.user!.id);
    if (!user) throw notFound('User');
    return user;
  }

  async function listOf(ctx: RequestContext, user: CoreUser) {
    const { perPage, offset } = ctx.page!;
    const keys = await service.list(user, perPage, offset);
    return page(keys.map(present(ctx, user)), await totalFor(ctx.page!, keys.length, () => service.count(user)));
  }

  const create = async (ctx: RequestContext, user: CoreUser, input: { key: string; title: string; expires_at?: Date | null; usage_type?: string | null }) => {
    const key = await service.create(user, {
      title: input.title,
      key: input.key,
      expiresAt: input.expires_at ?? null,
      usageType: (input.usage_type ?? 'auth_and_signing') as (typeof USAGE_TYPES)[number],
    });
    return created(present(ctx, user)(key));
  };

  return [
    defineRoute({
      method: 'GET',
      path: '/user/keys',
      scopes: ['read_user'],
      paginated: true,
      response: { schema: sshKeySchema },
      handler: async (ctx) => listOf(ctx, await callerOf(ctx)),
    }),
    defineRoute({
      method: 'GET',
      path: '/user/keys/:key_id',
      scopes: ['read_user'],
      input: params({ key_id: f.id() }),
      response: { schema: sshKeySchema },
      async handler(ctx, input) {
        const user = await callerOf(ctx);
        return present(ctx, user)(await service.find(user, input.key_id));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/user/keys',
      input: params(keyParams),
      // 409 only when the fingerprint is taken between the check and the insert, and the check then passes.
      response: { schema: sshKeySchema, errors: [409] },
      handler: async (ctx, input) => create(ctx, await callerOf(ctx), input),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/user/keys/:key_id',
      input: params({ key_id: f.id() }),
      response: { status: 204, errors: [412] },
      async handler(ctx, input) {
        const user = await callerOf(ctx);
        await service.remove(user, await service.find(user, input.key_id), ctx.header('If-Unmodified-Since'));
        return noContent();
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/users/:id/keys',
      auth: 'optional',
      scopes: ['read_user'],
      paginated: true,
      response: { schema: sshKeySchema },
      // An id or a username, as GitLab's `:user_id` is.
      handler: async (ctx) => listOf(ctx, await userOr404(ctx.params.id)),
    }),
    defineRoute({
      method: 'GET',
      path: '/users/:id/keys/:key_id',
      auth: 'optional',
      scopes: ['read_user'],
      input: params({ id: f.id(), key_id: f.id() }),
      response: { schema: sshKeySchema },
      async handler(ctx, input) {
        const user = await userOr404(String(input.id));
        return present(ctx, user)(await service.find(user, input.key_id));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/users/:id/keys',
      auth: 'admin',
      input: params({ id: f.id(), ...keyParams }),
      response: { schema: sshKeySchema, errors: [409] },
      handler: async (ctx, input) => create(ctx, await userOr404(String(input.id)), input),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/users/:id/keys/:key_id',
      auth: 'admin',
      input: params({ id: f.id(), key_id: f.id() }),
      response: { status: 204, errors: [412] },
      async handler(ctx, input) {
        const user = await userOr404(String(input.id));
        await service.remove(user, await service.find(user, input.key_id), ctx.header('If-Unmodified-Since'));
        return noContent();
      },
    }),
  ];
}
