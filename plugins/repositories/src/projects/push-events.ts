/**
 * `repository.pushed`: one event per updated ref of a project repository, whether the
 * change came from a git push or through the API, with GitLab's push hook fields. As in
 * GitLab, the payload is built after the push by a job, off the request's path.
 */
import type { EventBus } from '@forgekit/kernel';
import type { ProjectService, Project } from '@forgekit/plugin-core/contracts';
import { hookCommitTitle } from '../commits/commit-presenter.js';
import { ZERO_SHA } from '../git/ref-names.js';
import { listCommits, countCommits, headBranch, branchHead, type CommitInfo } from '../git/repo-reader.js';
import type { RefUpdate } from '../git/commit-writer.js';
import type { RepositoryGit } from '../git/repository-git.js';
import type { BranchProtection } from '../protected-branches/branch-protection.js';
import type { Pusher, RepositoryHandle, RepositoryService } from '../storage/repository-service.js';

export const POST_RECEIVE_JOB = 'repositories:post-receive';

/** GitLab lists at most this many commits in a push payload. */
const COMMITS_LIMIT = 20;

export function projectHookData(project: Project, externalUrl: string) {
  const fullPath = `${project.namespace.fullPath}/${project.path}`;
  const webUrl = `${externalUrl}/${fullPath}`;
  const sshUrl = `git@${new URL(externalUrl).hostname}:${fullPath}.git`;
  const httpUrl = `${webUrl}.git`;
  return {
    project: {
      id: project.id,
      name: project.name,
      description: project.description,
      web_url: webUrl,
      avatar_url: null,
      git_ssh_url: sshUrl,
      git_http_url: httpUrl,
      namespace: project.namespace.name,
      visibility_level: project.visibilityLevel,
      path_with_namespace: fullPath,
      default_branch: project.defaultBranch,
      ci_config_path: null,
      homepage: webUrl,
      url: sshUrl,
      ssh_url: sshUrl,
      http_url: httpUrl,
    },
    repository: {
      name: project.name,
      url: sshUrl,
      description: project.description,
      homepage: webUrl,
      git_http_url: httpUrl,
      git_ssh_url: sshUrl,
      visibility_level: project.visibilityLevel,
    },
  };
}

/** The commits a ref update brought in, newest last, and how many there were in all. */
async function pushedCommits(repository: RepositoryHandle, repositoryGit: RepositoryGit, update: RefUpdate, isTag: boolean) {
  if (!update.after) return { commits: [] as CommitInfo[], total: 0 };
  if (!isTag && update.before) {
    // One commit on top of the old tip (every commit made through the API): read it from
    // the repository's diff-tree process rather than starting git log.
    const shown = await repositoryGit.showCommit(update.after).catch(() => null);
    if (shown && shown.commit.parentIds.length === 1 && shown.commit.parentIds[0] === update.before) return { commits: [shown.commit], total: 1 };
  }
  if (isTag) {
    const commits = await listCommits(repository.gitDir, { revisions: [update.after], limit: 1 });
    return { commits, total: commits.length };
  }
  let exclude: string[] = [];
  if (update.before) exclude = [update.before];
  else {
    // A new branch brings what the default branch lacks.
    const defaultBranch = await headBranch(repository.gitDir);
    const defaultHead = defaultBranch && `refs/heads/${defaultBranch}` !== update.ref ? await branchHead(repository.gitDir, defaultBranch) : null;
    if (defaultHead) exclude = [defaultHead];
  }
  const options = { revisions: [update.after], exclude };
  const commits = (await listCommits(repository.gitDir, { ...options, limit: COMMITS_LIMIT })).reverse();
  const total = commits.length < COMMITS_LIMIT ? commits.length : await countCommits(repository.gitDir, options);
  return { commits, total };
}

/** What a push leaves for the post-receive job (JSON, so it can wait in a queue). */
export interface PostReceive {
  repositoryId: number;
  updates: RefUpdate[];
  pusher: Pusher | null;
}

/** The post-receive job: builds GitLab's push payload for each updated ref and emits it. */
export function postReceive(events: EventBus, projects: ProjectService, repos: RepositoryService, externalUrl: string, protection: BranchProtection) {
  return async ({ repositoryId, updates, pusher }: PostReceive) => {
    const repository = await repos.findById(repositoryId);
    if (repository?.kind !== 'project') return;
    const project = await projects.findById(repository.containerId);
    if (!project) return;
    const hookData = projectHookData(project, externalUrl);
    const policy = await protection.policyFor(null, project, { repository });
    for (const update of updates) {
      const protectedRef = update.ref.startsWith('refs/heads/') && policy.isProtected(update.ref.slice('refs/heads/'.length));
      await events.emit('repository.pushed', await pushPayload(repos, repository, project, hookData, update, pusher, protectedRef));
    }
  };
}

async function pushPayload(
  repos: RepositoryService,
  repository: RepositoryHandle,
  project: Project,
  hookData: ReturnType<typeof projectHookData>,
  update: RefUpdate,
  pusher: Pusher | null,
  refProtected: boolean,
) {
  const isTag = update.ref.startsWith('refs/tags/');
  const repositoryGit = repos.processesOf(repository);
  const { commits, total } = await pushedCommits(repository, repositoryGit, update, isTag);
  const webUrl = hookData.project.web_url;
  const commitData = await Promise.all(
    commits.map(async (commit) => ({
      id: commit.id,
      message: commit.message,
      title: hookCommitTitle(commit.message),
      timestamp: commit.committedDate,
      url: `${webUrl}/-/commit/${commit.id}`,
      author: { name: commit.authorName, email: commit.authorEmail },
      ...(await repositoryGit.changedPaths(commit.id)),
    })),
  );
  const kind = isTag ? 'tag_push' : 'push';
  return {
    projectId: project.id,
    userId: pusher?.id ?? null,
    object_kind: kind,
    event_name: kind,
    before: update.before ?? ZERO_SHA,
    after: update.after ?? ZERO_SHA,
    ref: update.ref,
    ref_protected: refProtected,
    checkout_sha: update.after ? (commits[commits.length - 1]?.id ?? update.after) : null,
    message: null,
    user_id: pusher?.id ?? null,
    user_name: pusher?.name ?? null,
    user_username: pusher?.username ?? null,
    user_email: pusher?.email ?? null,
    user_avatar: null,
    project_id: project.id,
    ...hookData,
    commits: commitData,
    total_commits_count: total,
    push_options: {},
  };
}
