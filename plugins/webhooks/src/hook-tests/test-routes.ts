import { randomUUID } from 'node:crypto';
import { created, defineRoute, f, params, unprocessable, type RateLimitService, type Route } from '@forgekit/kernel';
import { ARCHIVED_PROJECT_GUARD, type UserService } from '@forgekit/plugin-core/contracts';
import { HOOK_TRIGGERS } from '../contracts.js';
import type { DeliveryService } from '../delivery/delivery-service.js';
import type { HookMount } from '../hooks/hook-mount.js';
import type { HookService } from '../hooks/hook-service.js';
import { testPayload, type TestPayloadSources } from './test-payloads.js';

export interface TestRouteDeps {
  hooks: HookService;
  delivery: DeliveryService;
  users: UserService;
  rateLimits: RateLimitService;
  sources: TestPayloadSources;
  rateLimited: () => Promise<boolean>;
}

const testedSchema = { type: 'object', properties: { message: { const: '201 Created' } }, required: ['message'] } as const;

/** `POST .../hooks/:hook_id/test/:trigger`: delivers a sample now, even to a disabled hook; 201 only on a 2xx. */
export function testRoutes(deps: TestRouteDeps, mount: HookMount): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: `${mount.path}/:hook_id/test/:trigger`,
      exemptFrom: mount.kind === 'project' ? [ARCHIVED_PROJECT_GUARD] : [],
      input: params({ hook_id: f.id(), trigger: f.values([...HOOK_TRIGGERS]) }),
      response: { schema: testedSchema, errors: [422, 429] },
      before: (ctx) => mount.owner(ctx),
      async handler(ctx, { hook_id, trigger }, owner) {
        const hook = await deps.hooks.find(owner, hook_id);
        if (await deps.rateLimited())
          await deps.rateLimits.consume(`webhooks:test:${owner.kind}:${owner.id}:${ctx.user.id}`, { points: 5, durationSeconds: 60 });
        const user = (await deps.users.findById(ctx.user.id))!;
        const payload = await testPayload(deps.sources, trigger, { kind: mount.kind, projectIds: await mount.projectsForTest(ctx, owner) }, user);
        const outcome = await deps.delivery.execute(hook, trigger, payload, randomUUID(), randomUUID());
        if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) return created({ message: '201 Created' });
        throw unprocessable(outcome.error ?? outcome.body);
      },
    }),
  ];
}
