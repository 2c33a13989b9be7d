/** Merge request events as GitLab's merge request hooks: open, update, close, reopen, merge. */
import type { EventBus } from '@forgekit/kernel';
import type { ProjectService } from '@forgekit/plugin-core/contracts';
import { mergeRequestEvents, type MergeRequestsService } from '@forgekit/plugin-merge-requests/contracts';
import type { HookRequest } from '../contracts.js';
import { mergeRequestPayload, type MergeRequestPayloadSources } from './merge-request-payload.js';

export interface MergeRequestHookDeps extends MergeRequestPayloadSources {
  events: EventBus;
  projects: ProjectService;
  mergeRequests: MergeRequestsService;
  publish(request: HookRequest): Promise<void>;
}

interface MergeRequestEvent {
  mergeRequestId: number;
  projectId: number;
  userId: number;
  changes?: Readonly<Record<string, { previous: unknown; current: unknown }>>;
}

export function listenToMergeRequests(deps: MergeRequestHookDeps) {
  const hook =
    (action: string) =>
    async ({ mergeRequestId, projectId, userId, changes }: MergeRequestEvent) => {
      const [mr] = await deps.mergeRequests.byIds([mergeRequestId]);
      const project = await deps.projects.findById(projectId);
      if (!mr || !project) return;
      const payload = await mergeRequestPayload(deps, mr, project, await deps.users.findById(userId), action, changes);
      await deps.publish({ trigger: 'merge_requests_events', projectId, groupId: null, payload });
    };
  deps.events.on(mergeRequestEvents.opened, hook('open'));
  deps.events.on(mergeRequestEvents.updated, hook('update'));
  deps.events.on(mergeRequestEvents.closed, hook('close'));
  deps.events.on(mergeRequestEvents.reopened, hook('reopen'));
  deps.events.on(mergeRequestEvents.merged, hook('merge'));
}
