import { f, params, type ParamsSchema } from '@forgekit/kernel';
import { HOOK_TRIGGERS, type HookTrigger } from '../contracts.js';

export const BRANCH_FILTER_STRATEGIES = ['wildcard', 'regex', 'all_branches'] as const;

const keyValues = () => f.optional(f.array(f.hash({ key: f.string(), value: f.string() })));
const triggerFlags = Object.fromEntries(HOOK_TRIGGERS.map((name) => [name, f.optional(f.boolean())])) as Record<
  HookTrigger,
  ReturnType<typeof f.optional<boolean>>
>;

const fields = {
  name: f.optional(f.string()),
  description: f.optional(f.string()),
  token: f.optional(f.string()),
  enable_ssl_verification: f.optional(f.boolean()),
  push_events_branch_filter: f.optional(f.string()),
  branch_filter_strategy: f.optional(f.values([...BRANCH_FILTER_STRATEGIES])),
  custom_webhook_template: f.optional(f.string()),
  url_variables: keyValues(),
  custom_headers: keyValues(),
  ...triggerFlags,
};

export const createHookParams = params({ url: f.string(), ...fields });
export const updateHookParams = params({ hook_id: f.id(), url: f.optional(f.string()), ...fields });

export type HookInput = Omit<typeof updateHookParams extends ParamsSchema<infer T> ? T : never, 'hook_id'>;
