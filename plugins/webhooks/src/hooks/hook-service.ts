/** GitLab's rules for creating and changing hooks, in its order and with its texts. */
import { apiError, longerThan, notFound, recordNotFound, tooLongMessage, unprocessable, validationFailed } from '@forgekit/kernel';
import { HOOK_TRIGGERS, type HookTrigger } from '../contracts.js';
import { BlockedUrlError, checkedAddress, parseTarget, type OutboundPolicy } from '../delivery/outbound-guard.js';
import type { HookInput } from './hook-params.js';
import { interpolate, validBranchFilter, validHeader, validMap, validVariable } from './hook-rules.js';
import type { Hook, HookFields, HookOwner, HookStore } from './hook-store.js';

/** Lengths of GitLab's columns and model validations. */
const LIMITS = { url: 5000, name: 255, description: 2048, token: 255, push_events_branch_filter: 5000, custom_webhook_template: 4096 } as const;

const DEFAULT_TRIGGERS: Partial<Record<HookTrigger, boolean | null>> = Object.fromEntries(
  HOOK_TRIGGERS.map((name) => [name, name === 'push_events' ? true : name === 'confidential_note_events' ? null : false]),
);

const toMap = (pairs: readonly { key: string; value: string }[] | null | undefined) => Object.fromEntries((pairs ?? []).map(({ key, value }) => [key, value]));

export type PolicyReader = () => Promise<OutboundPolicy>;

export function createHookService(store: HookStore, policy: PolicyReader) {
  async function checkUrl(url: string, variables: Record<string, string>) {
    const target = interpolate(url, variables);
    if (target === null) throw unprocessable('Invalid url given');
    try {
      await checkedAddress(parseTarget(target), await policy());
    } catch (error) {
      if (error instanceof BlockedUrlError) throw unprocessable('Invalid url given');
      throw error;
    }
    return target;
  }

  function tooLong(input: HookInput) {
    const errors: Record<string, string[]> = {};
    for (const [name, max] of Object.entries(LIMITS)) {
      const value = input[name as keyof HookInput];
      if (typeof value === 'string' && longerThan(value, max)) errors[name] = [tooLongMessage(max)];
    }
    return errors;
  }

  function applyInput(base: HookFields, input: HookInput): HookFields {
    const triggers = { ...base.triggers };
    for (const name of HOOK_TRIGGERS) if (input[name] !== undefined && input[name] !== null) triggers[name] = input[name];
    const strategy = input.branch_filter_strategy ?? base.branchFilterStrategy;
    const filter = input.push_events_branch_filter !== undefined ? input.push_events_branch_filter : base.pushEventsBranchFilter;
    return {
      url: input.url ?? base.url,
      name: input.name !== undefined ? input.name : base.name,
      description: input.description !== undefined ? input.description : base.description,
      token: input.token !== undefined ? input.token || null : base.token,
      urlVariables: { ...base.urlVariables, ...toMap(input.url_variables) },
      customHeaders: { ...base.customHeaders, ...toMap(input.custom_headers) },
      triggers,
      enableSslVerification: input.enable_ssl_verification ?? base.enableSslVerification,
      branchFilterStrategy: strategy,
      pushEventsBranchFilter: strategy === 'all_branches' ? null : filter || null,
      customWebhookTemplate: input.custom_webhook_template !== undefined ? input.custom_webhook_template || null : base.customWebhookTemplate,
    };
  }

  return {
    list: store.list,
    count: store.count,
    async find(owner: HookOwner, id: number) {
      const hook = await store.find(owner, id);
      if (!hook) throw recordNotFound();
      return hook;
    },

    async create(owner: HookOwner, input: HookInput & { url: string }) {
      const blank: HookFields = {
        url: input.url,
        name: null,
        description: null,
        token: null,
        urlVariables: {},
        customHeaders: {},
        triggers: DEFAULT_TRIGGERS,
        enableSslVerification: true,
        pushEventsBranchFilter: null,
        branchFilterStrategy: 'wildcard',
        customWebhookTemplate: null,
      };
      const fields = applyInput(blank, input);
      if (!validMap(fields.customHeaders, validHeader)) throw unprocessable('Custom headers must be a valid json schema');
      if (!validMap(fields.urlVariables, validVariable)) throw unprocessable('Url variables must be a valid json schema');
      await checkUrl(fields.url, fields.urlVariables);
      if (!validBranchFilter(fields.branchFilterStrategy, fields.pushEventsBranchFilter)) throw unprocessable('Invalid branch filter given');
      const errors = tooLong(input);
      const first = Object.entries(errors)[0];
      if (first) throw unprocessable(`${first[0].replace(/^./, (c) => c.toUpperCase()).replaceAll('_', ' ')} ${first[1][0]}`);
      return store.insert(owner, fields);
    },

    async update(hook: Hook, input: HookInput) {
      if (Object.values(input).every((value) => value === undefined)) throw apiError(400, 'No parameters provided');
      const next = applyInput(hook, input);
      const oldTarget = interpolate(hook.url, hook.urlVariables);
      // A new destination must not receive secrets meant for the old one.
      if (input.url !== undefined && input.url !== hook.url && input.token === undefined) next.token = null;
      if (!validMap(next.customHeaders, validHeader)) throw unprocessable('Custom headers validation failed');
      if (!validMap(next.urlVariables, validVariable)) throw validationFailed({ url_variables: ['must be a valid json schema'] }, 422);
      const target = await checkUrl(next.url, next.urlVariables);
      if (target !== oldTarget && input.custom_headers === undefined) next.customHeaders = {};
      if (!validBranchFilter(next.branchFilterStrategy, next.pushEventsBranchFilter)) throw unprocessable('Invalid branch filter given');
      const errors = tooLong(input);
      if (Object.keys(errors).length) throw validationFailed(errors, 422);
      // An edit makes a disabled hook executable again.
      return store.update(hook.id, next, { recentFailures: 0, disabledUntil: null });
    },

    remove: (hook: Hook) => store.remove(hook.id),

    async setVariable(hook: Hook, key: string, value: string) {
      if (!validVariable(key, value)) throw unprocessable('Illegal key or value');
      const urlVariables = { ...hook.urlVariables, [key]: value };
      if (!validMap(urlVariables, validVariable)) throw unprocessable('Illegal key or value');
      await store.update(hook.id, { ...hook, urlVariables });
    },
    async unsetVariable(hook: Hook, key: string) {
      if (!(key in hook.urlVariables)) throw notFound('URL variable');
      const { [key]: _gone, ...urlVariables } = hook.urlVariables;
      if (interpolate(hook.url, urlVariables) === null) throw unprocessable('Could not unset variable');
      await store.update(hook.id, { ...hook, urlVariables });
    },
    async setHeader(hook: Hook, key: string, value: string) {
      const customHeaders = { ...hook.customHeaders, [key]: value };
      if (!validHeader(key, value) || !validMap(customHeaders, validHeader)) throw unprocessable('Illegal key or value');
      await store.update(hook.id, { ...hook, customHeaders });
    },
    async unsetHeader(hook: Hook, key: string) {
      if (!(key in hook.customHeaders)) throw notFound('Custom header');
      const { [key]: _gone, ...customHeaders } = hook.customHeaders;
      await store.update(hook.id, { ...hook, customHeaders });
    },
  };
}

export type HookService = ReturnType<typeof createHookService>;
