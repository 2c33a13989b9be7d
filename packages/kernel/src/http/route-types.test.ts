import { describe, expectTypeOf, it } from 'vitest';
import type { Principal } from '../auth/identity.js';
import type { PathParamNames } from './context.js';
import { defineRoute } from './route.js';

describe('route types', () => {
  it('names the placeholders of a path', () => {
    expectTypeOf<PathParamNames<'/projects/:id/variables/:key'>>().toEqualTypeOf<'id' | 'key'>();
    expectTypeOf<PathParamNames<'/version'>>().toEqualTypeOf<never>();
    expectTypeOf<PathParamNames<string>>().toEqualTypeOf<string>();
  });

  it('gives required and admin routes a caller that is never null, and the path params by name', () => {
    defineRoute({
      method: 'GET',
      path: '/projects/:id/hooks/:hook_id',
      handler: (ctx) => {
        expectTypeOf(ctx.user).toEqualTypeOf<Principal>();
        expectTypeOf(ctx.params.hook_id).toEqualTypeOf<string>();
        // @ts-expect-error: not a placeholder of this path
        void ctx.params.other;
      },
    });
    defineRoute({ method: 'GET', path: '/admin/x', auth: 'admin', handler: (ctx) => expectTypeOf(ctx.user).toEqualTypeOf<Principal>() });
    defineRoute({ method: 'GET', path: '/x', auth: 'optional', handler: (ctx) => expectTypeOf(ctx.user).toEqualTypeOf<Principal | null>() });
  });
});
