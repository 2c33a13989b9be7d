/**
 * `/user/two_factor`: a REST extension (GitLab enrols in its web UI) so that a user's TOTP
 * authenticator, `two_factor_enabled` and `disable_two_factor` act on real state.
 */
import { created, defineRoute, f, noContent, params, type Route } from '@forgekit/kernel';
import { twoFactorEnrolmentSchema, twoFactorStatusSchema } from './two-factor-schemas.js';
import type { TwoFactorService } from './two-factor-service.js';

export function twoFactorRoutes(service: TwoFactorService): Route[] {
  const code = params({ otp_attempt: f.string() });
  return [
    defineRoute({
      method: 'GET',
      path: '/user/two_factor',
      scopes: ['read_user'],
      response: { schema: twoFactorStatusSchema },
      handler: (ctx) => service.status(ctx.user.id),
    }),
    defineRoute({
      method: 'POST',
      path: '/user/two_factor',
      // 400: two-factor authentication is already on.
      response: { schema: twoFactorEnrolmentSchema, errors: [400] },
      handler: async (ctx) => created(await service.begin(ctx.user.id, ctx.user.username)),
    }),
    defineRoute({
      method: 'POST',
      path: '/user/two_factor/activate',
      response: { schema: twoFactorStatusSchema },
      input: code,
      async handler(ctx, input) {
        await service.activate(ctx.user.id, input.otp_attempt);
        return service.status(ctx.user.id);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/user/two_factor',
      response: { status: 204 },
      input: code,
      async handler(ctx, input) {
        await service.disableWithCode(ctx.user.id, input.otp_attempt);
        return noContent();
      },
    }),
  ];
}
