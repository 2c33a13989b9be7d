/** GitLab's `hook_attrs` of the objects several payloads describe: users, issues, merge requests. */
import type { Project, User } from '@forgekit/plugin-core/contracts';
import type { Issue } from '@forgekit/plugin-issues/contracts';
import type { MergeRequest } from '@forgekit/plugin-merge-requests/contracts';
import { projectHookData } from '@forgekit/plugin-repositories/contracts';

export const time = (value: Date | null) => (value ? value.toISOString() : null);

type Changes = Readonly<Record<string, { previous: unknown; current: unknown }>>;

/** An event's changed fields as a payload's `changes`, keeping only `previous` and `current`. */
export const hookChanges = (changes: Changes = {}) =>
  Object.fromEntries(Object.entries(changes).map(([name, change]) => [name, { previous: change.previous, current: change.current }]));

export function hookUser(user: User | undefined) {
  return user ? { id: user.id, name: user.name, username: user.username, avatar_url: null, email: user.email } : null;
}

/** The `project` and deprecated `repository` blocks every project payload carries. */
export function projectBlocks(project: Project, externalUrl: string) {
  const hookData = projectHookData(project, externalUrl);
  return {
    project: hookData.project,
    repository: { name: project.name, url: hookData.repository.url, description: project.description, homepage: hookData.repository.homepage },
  };
}

export function issueAttributes(issue: Issue, webUrl: string) {
  return {
    id: issue.id,
    iid: issue.iid,
    title: issue.title,
    description: issue.description,
    state: issue.state,
    confidential: issue.confidential,
    author_id: issue.authorId,
    project_id: issue.projectId,
    milestone_id: issue.milestoneId,
    iteration_id: issue.iterationId,
    due_date: issue.dueDate,
    closed_at: time(issue.closedAt),
    created_at: time(issue.createdAt),
    updated_at: time(issue.updatedAt),
    url: `${webUrl}/-/issues/${issue.iid}`,
  };
}

export function mergeRequestAttributes(mr: MergeRequest, project: ReturnType<typeof projectHookData>['project'], lastCommit: Record<string, unknown> | null) {
  return {
    id: mr.id,
    iid: mr.iid,
    title: mr.title,
    description: mr.description,
    state: mr.state,
    source_branch: mr.sourceBranch,
    target_branch: mr.targetBranch,
    // Forks are not modelled: source and target are the same project.
    source_project_id: mr.projectId,
    target_project_id: mr.projectId,
    author_id: mr.authorId,
    assignee_id: mr.assigneeIds[0] ?? null,
    assignee_ids: mr.assigneeIds,
    reviewer_ids: mr.reviewerIds,
    milestone_id: mr.milestoneId,
    merge_commit_sha: mr.mergeCommitSha,
    merge_status: mr.state === 'opened' ? 'unchecked' : 'can_be_merged',
    detailed_merge_status: mr.state === 'opened' ? 'unchecked' : 'not_open',
    draft: mr.draft,
    work_in_progress: mr.draft,
    created_at: time(mr.createdAt),
    updated_at: time(mr.updatedAt),
    closed_at: time(mr.closedAt),
    merged_at: time(mr.mergedAt),
    url: `${project.web_url}/-/merge_requests/${mr.iid}`,
    source: project,
    target: project,
    last_commit: lastCommit,
    time_estimate: 0,
    total_time_spent: 0,
    human_time_estimate: null,
    human_total_time_spent: null,
    blocking_discussions_resolved: true,
    first_contribution: false,
  };
}
