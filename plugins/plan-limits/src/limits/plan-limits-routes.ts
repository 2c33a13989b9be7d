import { defineRoute, f, params, validationFailed, type Route } from '@forgekit/kernel';
import { DEFAULT_PLAN, NON_NEGATIVE_LIMITS, PLAN_NAMES, PUBLIC_LIMIT_NAMES, type PublicLimit } from './limit-catalogue.js';
import { planLimitsSchema } from './plan-limits-schemas.js';
import type { PlanLimitsAdmin } from './plan-limits-service.js';

// Limits are kept in a `bigint` column.
const optionalInteger = () => f.optional(f.bigInteger());
const limitFields = Object.fromEntries(PUBLIC_LIMIT_NAMES.map((name) => [name, optionalInteger()])) as Record<PublicLimit, ReturnType<typeof optionalInteger>>;

/** Rails' numericality check on the limits that may not be negative. */
function negativeErrors(values: Partial<Record<PublicLimit, number>>) {
  const errors: Record<string, string[]> = {};
  for (const name of NON_NEGATIVE_LIMITS) {
    const value = values[name];
    if (value !== undefined && value < 0) errors[name] = ['must be greater than or equal to 0'];
  }
  return errors;
}

export function planLimitsRoutes(planLimits: PlanLimitsAdmin): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/application/plan_limits',
      auth: 'admin',
      response: { schema: planLimitsSchema },
      input: params({ plan_name: f.optional(f.values(PLAN_NAMES), DEFAULT_PLAN) }),
      handler: (_ctx, input) => planLimits.publicLimits(input.plan_name ?? DEFAULT_PLAN),
    }),
    defineRoute({
      method: 'PUT',
      path: '/application/plan_limits',
      auth: 'admin',
      response: { schema: planLimitsSchema },
      input: params({ plan_name: f.values(PLAN_NAMES), ...limitFields }),
      async handler(_ctx, input) {
        const { plan_name: plan, ...limits } = input;
        // A limit sent without a value keeps what it had.
        const values = Object.fromEntries(Object.entries(limits).filter(([, value]) => typeof value === 'number')) as Partial<Record<PublicLimit, number>>;
        const errors = negativeErrors(values);
        if (Object.keys(errors).length > 0) throw validationFailed(errors);
        await planLimits.update(plan, values);
        return planLimits.publicLimits(plan);
      },
    }),
  ];
}
