import type { HookTrigger } from '../contracts.js';

/** The hook kind a trigger flag delivers, as history records it: `push_events` → `push_hooks`. */
const HOOK_NAMES: Record<HookTrigger, string> = {
  push_events: 'push_hooks',
  tag_push_events: 'tag_push_hooks',
  merge_requests_events: 'merge_request_hooks',
  repository_update_events: 'repository_update_hooks',
  issues_events: 'issue_hooks',
  confidential_issues_events: 'confidential_issue_hooks',
  note_events: 'note_hooks',
  confidential_note_events: 'confidential_note_hooks',
  pipeline_events: 'pipeline_hooks',
  wiki_page_events: 'wiki_page_hooks',
  job_events: 'job_hooks',
  deployment_events: 'deployment_hooks',
  feature_flag_events: 'feature_flag_hooks',
  releases_events: 'release_hooks',
  milestone_events: 'milestone_hooks',
  subgroup_events: 'subgroup_hooks',
  emoji_events: 'emoji_hooks',
  resource_access_token_events: 'resource_access_token_hooks',
  member_events: 'member_hooks',
  vulnerability_events: 'vulnerability_hooks',
  project_events: 'project_hooks',
};

export const hookName = (trigger: HookTrigger) => HOOK_NAMES[trigger];

/** The event header's value: `push_hooks` → `Push Hook`. */
export function eventHeader(hook: string) {
  const words = hook.replace(/_hooks$/, '').split('_');
  return `${words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join(' ')} Hook`;
}

export function triggerOfHookName(name: string): HookTrigger | undefined {
  return (Object.keys(HOOK_NAMES) as HookTrigger[]).find((trigger) => HOOK_NAMES[trigger] === name);
}
