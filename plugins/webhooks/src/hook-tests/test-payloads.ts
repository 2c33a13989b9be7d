/**
 * Payloads for `POST .../hooks/:hook_id/test/:trigger`, built from real data as GitLab's
 * sample builders do, or GitLab's 422 text.
 */
import { unprocessable } from '@forgekit/kernel';
import type { Project, ProjectService, User, UserService } from '@forgekit/plugin-core/contracts';
import type { IssuesService } from '@forgekit/plugin-issues/contracts';
import type { MergeRequestsService } from '@forgekit/plugin-merge-requests/contracts';
import type { NotesService } from '@forgekit/plugin-notes/contracts';
import { hookCommitTitle, projectHookData, ZERO_SHA, type RepositoryReads } from '@forgekit/plugin-repositories/contracts';
import type { HookTrigger } from '../contracts.js';
import { awardPayload } from '../delivery/emoji-hooks.js';
import { issuePayload } from '../delivery/event-sources.js';
import { mergeRequestPayload } from '../delivery/merge-request-payload.js';
import { noteable, notePayload } from '../delivery/note-hooks.js';

/** GitLab's sample push lists the default branch's last three commits. */
const SAMPLE_COMMITS = 3;

export interface TestPayloadSources {
  projects: ProjectService;
  repositories: RepositoryReads | undefined;
  mergeRequests: MergeRequestsService | undefined;
  issues: IssuesService | undefined;
  notes: NotesService | undefined;
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

/** GitLab's TestHooks::GroupService tests a group's hook on the group's first project with commits. */
async function firstNonEmptyProject(sources: TestPayloadSources, projectIds: readonly number[]) {
  for (const projectId of projectIds) {
    const repository = await sources.repositories?.find({ kind: 'project', containerId: projectId });
    const branch = repository && (await sources.repositories!.headBranch(repository));
    if (!repository || !branch) continue;
    const [commit] = await sources.repositories!.listCommits(repository, { revisions: [`refs/heads/${branch}`], limit: 1 });
    if (commit) return projectId;
  }
  throw unprocessable('Ensure the group has a project with commits.');
}

/** The project's latest merge request, opened, as GitLab's sample. */
async function sampleMergeRequest(sources: TestPayloadSources, project: Project, user: User) {
  const mr = await sources.mergeRequests?.latestOf(project.id);
  if (!mr) throw unprocessable('Ensure the project has merge requests.');
  return mergeRequestPayload(sources, mr, project, user, 'open');
}

/** The project's latest issue, opened (for issues and confidential issues alike, as GitLab). */
async function sampleIssue(sources: TestPayloadSources, project: Project, user: User) {
  const issue = await sources.issues?.latestOf(project.id);
  if (!issue) throw unprocessable('Ensure the project has issues.');
  return issuePayload(issue, project, user, sources.externalUrl, 'open');
}

/** The project's latest comment and what it is on. */
async function latestNote(sources: TestPayloadSources, project: Project) {
  const note = await sources.notes?.latestOfProject(project.id);
  const target = note && (await noteable(sources, note.noteableType, note.noteableId, project));
  if (!note || !target) throw unprocessable('Ensure the project has notes.');
  return { note, target };
}

/** GitLab awards a made-up thumbs up (id 1) from the caller on the project's latest note. */
async function sampleAward(sources: TestPayloadSources, project: Project, user: User) {
  const { note, target } = await latestNote(sources, project);
  const described = notePayload(note, project, target, undefined, sources.externalUrl, 'create');
  const { action: _action, ...noteAttributes } = described.object_attributes;
  const award = {
    id: 1,
    name: 'thumbsup',
    userId: user.id,
    awardableType: 'Note',
    awardableId: note.id,
    url: noteAttributes.url,
    createdAt: new Date().toISOString(),
  };
  return awardPayload(award, project, user, sources.externalUrl, 'award', { note: noteAttributes, [target.key]: target.attributes });
}

/** The texts GitLab answers when the project has none of what a trigger describes; forgekit keeps none of these. */
const NOTHING_TO_DESCRIBE: Partial<Record<HookTrigger, string>> = {
  job_events: 'Ensure the project has CI jobs.',
  pipeline_events: 'Ensure the project has CI pipelines.',
  releases_events: 'Ensure the project has releases.',
};

/**
 * GitLab's TestHooks::ProjectService: a sample built from the project's real data for the
 * triggers it knows, GitLab's 422 text when there is none, and `Testing not available for this
 * hook` for the other triggers (confidential notes, deployments, feature flags, members,
 * subgroups, milestones, ...). A group hook is tested on the group's first project with commits.
 */
export async function testPayload(
  sources: TestPayloadSources,
  trigger: HookTrigger,
  scope: { kind: 'group' | 'project'; projectIds: readonly number[] },
  user: User,
): Promise<Record<string, unknown>> {
  if (trigger === 'push_events' || trigger === 'tag_push_events') return samplePush(sources, scope.projectIds, user, trigger === 'tag_push_events');
  const projectId = scope.kind === 'group' ? await firstNonEmptyProject(sources, scope.projectIds) : scope.projectIds[0];
  const project = projectId === undefined ? undefined : await sources.projects.findById(projectId);
  if (!project) throw unprocessable('Ensure the group has a project with commits.');
  switch (trigger) {
    case 'issues_events':
    case 'confidential_issues_events':
      return sampleIssue(sources, project, user);
    case 'merge_requests_events':
      return sampleMergeRequest(sources, project, user);
    case 'note_events': {
      const { note, target } = await latestNote(sources, project);
      return notePayload(note, project, target, user, sources.externalUrl, 'create');
    }
    case 'emoji_events':
      return sampleAward(sources, project, user);
    default: {
      const nothing = NOTHING_TO_DESCRIBE[trigger];
      throw unprocessable(nothing ?? 'Testing not available for this hook');
    }
  }
}
