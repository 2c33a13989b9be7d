import { HOOK_TRIGGERS } from '../contracts.js';
import { alertStatus } from '../delivery/auto-disabling.js';
import type { Hook } from './hook-store.js';

/** GitLab's GroupHook and ProjectHook entities: the token is never shown, nor variable or header values. */
export function presentHook(hook: Hook, autoDisabling: boolean) {
  const triggers = Object.fromEntries(HOOK_TRIGGERS.map((name) => [name, name in hook.triggers ? hook.triggers[name] : false]));
  return {
    id: hook.id,
    url: hook.url,
    name: hook.name ?? '',
    description: hook.description ?? '',
    ...(hook.owner.kind === 'group' ? { group_id: hook.owner.id } : { project_id: hook.owner.id }),
    created_at: hook.createdAt.toISOString(),
    ...triggers,
    enable_ssl_verification: hook.enableSslVerification,
    alert_status: alertStatus(hook, autoDisabling),
    disabled_until: autoDisabling && hook.disabledUntil ? hook.disabledUntil.toISOString() : null,
    url_variables: Object.keys(hook.urlVariables).map((key) => ({ key })),
    push_events_branch_filter: hook.pushEventsBranchFilter,
    branch_filter_strategy: hook.branchFilterStrategy,
    custom_webhook_template: hook.customWebhookTemplate ?? '',
    custom_headers: Object.keys(hook.customHeaders).map((key) => ({ key })),
  };
}
