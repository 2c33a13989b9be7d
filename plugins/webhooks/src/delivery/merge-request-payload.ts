/** GitLab's `object_kind: merge_request` payload, for events and for the test endpoint. */
import type { Project, User, UserService } from '@forgekit/plugin-core/contracts';
import type { MergeRequest } from '@forgekit/plugin-merge-requests/contracts';
import { hookCommitTitle, type RepositoryReads } from '@forgekit/plugin-repositories/contracts';
import { hookChanges, hookUser, mergeRequestAttributes, projectBlocks } from './hook-attributes.js';

export interface MergeRequestPayloadSources {
  users: UserService;
  repositories: RepositoryReads | undefined;
  externalUrl: string;
}

type Changes = Readonly<Record<string, { previous: unknown; current: unknown }>>;

async function lastCommit(sources: MergeRequestPayloadSources, mr: MergeRequest, webUrl: string) {
  const repository = await sources.repositories?.find({ kind: 'project', containerId: mr.projectId });
  // An open merge request follows its source branch; a closed or merged one keeps the head it had.
  const commit = repository && (await sources.repositories!.readCommit(repository, mr.headSha ?? `refs/heads/${mr.sourceBranch}`));
  if (!commit) return null;
  return {
    id: commit.id,
    message: commit.message,
    title: hookCommitTitle(commit.message),
    timestamp: commit.committedDate,
    url: `${webUrl}/-/commit/${commit.id}`,
    author: { name: commit.authorName, email: commit.authorEmail },
  };
}

/** The `object_attributes` of a merge request, for its own payload and for notes on it. */
export async function describeMergeRequest(sources: MergeRequestPayloadSources, mr: MergeRequest, project: Project) {
  const blocks = projectBlocks(project, sources.externalUrl);
  return mergeRequestAttributes(mr, blocks.project, await lastCommit(sources, mr, blocks.project.web_url));
}

export async function mergeRequestPayload(
  sources: MergeRequestPayloadSources,
  mr: MergeRequest,
  project: Project,
  user: User | undefined,
  action: string | null,
  changes: Changes = {},
): Promise<Record<string, unknown>> {
  const blocks = projectBlocks(project, sources.externalUrl);
  const people = await sources.users.findByIds([...new Set([...mr.assigneeIds, ...mr.reviewerIds])]);
  const byId = new Map(people.map((person) => [person.id, person]));
  const usersOf = (ids: readonly number[]) => ids.map((id) => hookUser(byId.get(id))).filter((person) => person !== null);
  const attributes = await describeMergeRequest(sources, mr, project);
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: hookUser(user),
    project: blocks.project,
    object_attributes: action ? { ...attributes, action } : attributes,
    labels: [],
    changes: hookChanges(changes),
    repository: blocks.repository,
    ...(mr.assigneeIds.length > 0 ? { assignees: usersOf(mr.assigneeIds) } : {}),
    ...(mr.reviewerIds.length > 0 ? { reviewers: usersOf(mr.reviewerIds) } : {}),
  };
}
