/**
 * The events forgekit's plugins publish today, turned into GitLab's hook payloads: pushes and
 * tag pushes from repositories, issues and milestones. A plugin with a new kind of event emits
 * `webhookEvents.requested` with its payload instead (see contracts).
 */
import type { EventBus } from '@forgekit/kernel';
import type { Project, ProjectService, User, UserService } from '@forgekit/plugin-core/contracts';
import { issueEvents, type Issue, type IssuesService } from '@forgekit/plugin-issues/contracts';
import { milestoneLifecycle, type Milestone } from '@forgekit/plugin-milestones/contracts';
import { projectHookData, repositoryEvents } from '@forgekit/plugin-repositories/contracts';
import type { HookRequest } from '../contracts.js';
import { hookChanges, hookUser, issueAttributes, projectBlocks, time } from './hook-attributes.js';

export interface EventSourceDeps {
  events: EventBus;
  projects: ProjectService;
  users: UserService;
  issues: IssuesService | undefined;
  externalUrl: string;
  publish(request: HookRequest): Promise<void>;
}

const BRANCH_PREFIX = 'refs/heads/';

/** GitLab's `object_kind: issue` payload, for events and for the test endpoint. */
export function issuePayload(
  issue: Issue,
  project: Project,
  user: User | undefined,
  externalUrl: string,
  action: string,
  changes?: Record<string, { previous: unknown; current: unknown }>,
) {
  const blocks = projectBlocks(project, externalUrl);
  return {
    object_kind: 'issue',
    event_type: issue.confidential ? 'confidential_issue' : 'issue',
    user: hookUser(user),
    project: blocks.project,
    object_attributes: { ...issueAttributes(issue, blocks.project.web_url), action },
    labels: [],
    changes: hookChanges(changes),
    repository: blocks.repository,
  };
}

export function listenToEventSources(deps: EventSourceDeps) {
  const { events } = deps;

  events.on(repositoryEvents.pushed, async ({ projectId, userId: _userId, ...payload }) => {
    const tag = payload.object_kind === 'tag_push';
    await deps.publish({
      trigger: tag ? 'tag_push_events' : 'push_events',
      projectId,
      groupId: null,
      payload,
      ...(tag || !payload.ref.startsWith(BRANCH_PREFIX) ? {} : { branch: payload.ref.slice(BRANCH_PREFIX.length) }),
    });
  });

  const issueHook =
    (action: string) =>
    async ({
      issueId,
      projectId,
      userId,
      changes,
    }: {
      issueId: number;
      projectId: number;
      userId: number;
      changes?: Record<string, { previous: unknown; current: unknown }>;
    }) => {
      const [issue] = (await deps.issues?.byIds([issueId])) ?? [];
      const project = await deps.projects.findById(projectId);
      if (!issue || !project) return;
      await deps.publish({
        trigger: issue.confidential ? 'confidential_issues_events' : 'issues_events',
        projectId,
        groupId: null,
        payload: issuePayload(issue, project, await deps.users.findById(userId), deps.externalUrl, action, changes),
      });
    };
  events.on(issueEvents.created, issueHook('open'));
  events.on(issueEvents.updated, issueHook('update'));
  events.on(issueEvents.closed, issueHook('close'));
  events.on(issueEvents.reopened, issueHook('reopen'));

  // GitLab sends milestone hooks for project milestones.
  const milestoneHook =
    (action: string) =>
    async ({ projectId, milestone }: { projectId: number | null; milestone?: Milestone }) => {
      if (projectId === null || !milestone) return;
      const project = await deps.projects.findById(projectId);
      if (!project) return;
      const hookData = projectHookData(project, deps.externalUrl);
      await deps.publish({
        trigger: 'milestone_events',
        projectId,
        groupId: null,
        payload: {
          object_kind: 'milestone',
          event_type: 'milestone',
          project: hookData.project,
          object_attributes: {
            id: milestone.id,
            iid: milestone.iid,
            title: milestone.title,
            description: milestone.description,
            state: milestone.state,
            project_id: milestone.projectId,
            group_id: milestone.groupId,
            due_date: milestone.dueDate,
            start_date: milestone.startDate,
            created_at: time(milestone.createdAt),
            updated_at: time(milestone.updatedAt),
            action,
          },
        },
      });
    };
  events.on(milestoneLifecycle.created, milestoneHook('create'));
  events.on(milestoneLifecycle.closed, milestoneHook('close'));
  events.on(milestoneLifecycle.reopened, milestoneHook('reopen'));
  events.on(milestoneLifecycle.deleted, milestoneHook('delete'));
}
