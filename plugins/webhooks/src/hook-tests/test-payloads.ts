/**
 * Payloads for `POST .../hooks/:hook_id/test/:trigger`, built from real data as GitLab's
 * sample builders do (push and tag push), or GitLab's 422 text.
 */
import { unprocessable } from '@forgekit/kernel';
import type { ProjectService, User, UserService } from '@forgekit/plugin-core/contracts';
import type { MergeRequestsService } from '@forgekit/plugin-merge-requests/contracts';
import { hookCommitTitle, projectHookData, ZERO_SHA, type RepositoryReads } from '@forgekit/plugin-repositories/contracts';
import type { HookTrigger } from '../contracts.js';
import { mergeRequestPayload } from '../delivery/merge-request-payload.js';

/** GitLab's sample push lists the default branch's last three commits. */
const SAMPLE_COMMITS = 3;

export interface TestPayloadSources {
  projects: ProjectService;
  repositories: RepositoryReads | undefined;
  mergeRequests: MergeRequestsService | undefined;
  users: UserService;
  externalUrl: string;
}

function userFields(user: User) {
  return { user_id: user.id, user_name: user.name, user_username: user.username, user_email: user.email, user_avatar: null };
}

async function samplePush(sources: TestPayloadSources, projectIds: readonly number[], user: User, tag: boolean) {
  for (const projectId of projectIds) {
    const project = await sources.projects.findById(projectId);
    const repository = project && (await sources.repositories?.find({ kind: 'project', containerId: projectId }));
    if (!project || !repository || !sources.repositories) continue;
    const branch = await sources.repositories.headBranch(repository);
    if (!branch) continue;
    const commits = await sources.repositories.listCommits(repository, { revisions: [`refs/heads/${branch}`], limit: SAMPLE_COMMITS });
    if (commits.length === 0) continue;
    const hookData = projectHookData(project, sources.externalUrl);
    const kind = tag ? 'tag_push' : 'push';
    return {
      object_kind: kind,
      event_name: kind,
      before: tag ? ZERO_SHA : commits[commits.length - 1]!.id,
      after: commits[0]!.id,
      ref: tag ? `refs/tags/${branch}` : `refs/heads/${branch}`,
      ref_protected: false,
      checkout_sha: commits[0]!.id,
      message: null,
      ...userFields(user),
      project_id: project.id,
      ...hookData,
      commits: commits.map((commit) => ({
        id: commit.id,
        message: commit.message,
        title: hookCommitTitle(commit.message),
        timestamp: commit.committedDate,
        url: `${hookData.project.web_url}/-/commit/${commit.id}`,
        author: { name: commit.authorName, email: commit.authorEmail },
        added: [],
        modified: [],
        removed: [],
      })),
      total_commits_count: commits.length,
      push_options: {},
    };
  }
  throw unprocessable('Ensure the group has a project with commits.');
}

/** GitLab's sample is the project's latest merge request, described without an action. */
async function sampleMergeRequest(sources: TestPayloadSources, projectIds: readonly number[], user: User) {
  for (const projectId of projectIds) {
    const project = await sources.projects.findById(projectId);
    const mr = project && (await sources.mergeRequests?.latestOf(projectId));
    if (project && mr) return mergeRequestPayload(sources, mr, project, user, null);
  }
  throw unprocessable('Ensure the project has merge requests.');
}

export async function testPayload(
  sources: TestPayloadSources,
  trigger: HookTrigger,
  projectIds: readonly number[],
  user: User,
): Promise<Record<string, unknown>> {
  if (trigger === 'push_events' || trigger === 'tag_push_events') return samplePush(sources, projectIds, user, trigger === 'tag_push_events');
  if (trigger === 'merge_requests_events') return sampleMergeRequest(sources, projectIds, user);
  // Only push and merge request payloads have a sample builder here; GitLab's answer for a trigger it cannot test.
  throw unprocessable('Testing not available for this hook');
}
