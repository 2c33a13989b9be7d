/**
 * What other plugins may use of webhooks: the event through which any plugin asks for a hook
 * delivery. A plugin emits `webhookEvents.requested` with GitLab's payload for the trigger; the
 * webhooks plugin, when the host composes it, delivers it to the hooks of the project (and of
 * the groups above it) or of the group that enabled the trigger. Without the plugin, nothing listens.
 */
import { defineEvent } from '@forgekit/kernel';

/** The event switches of a hook, named as on the wire. */
export const HOOK_TRIGGERS = [
  'push_events',
  'tag_push_events',
  'merge_requests_events',
  'repository_update_events',
  'issues_events',
  'confidential_issues_events',
  'note_events',
  'confidential_note_events',
  'pipeline_events',
  'wiki_page_events',
  'job_events',
  'deployment_events',
  'feature_flag_events',
  'releases_events',
  'milestone_events',
  'subgroup_events',
  'emoji_events',
  'resource_access_token_events',
  'member_events',
  'vulnerability_events',
  'project_events',
] as const;

export type HookTrigger = (typeof HOOK_TRIGGERS)[number];

export interface HookRequest {
  trigger: HookTrigger;
  /** The project the event happened in; its hooks and its groups' hooks receive it. */
  projectId: number | null;
  /** For a group's own events (no project): that group's hooks and its ancestors' receive it. */
  groupId: number | null;
  /** GitLab's payload for the trigger, as it is sent. */
  payload: Record<string, unknown>;
  /** For push triggers: the branch name, which branch filters test. */
  branch?: string;
}

export const webhookEvents = {
  requested: defineEvent<HookRequest>('webhook.requested'),
};
