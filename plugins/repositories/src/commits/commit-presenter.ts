/** GitLab's Commit and CommitDetail entities. */
import type { Project } from '@forgekit/plugin-core/contracts';
import type { CommitInfo } from '../git/repo-reader.js';

/** git's strict ISO time (`2024-05-01T10:00:00+02:00`) in GitLab's form, with milliseconds. */
export function gitTime(iso: string): string {
  return iso.replace(/(T\d{2}:\d{2}:\d{2})(Z|[+-]\d{2}:\d{2})$/, (_, time: string, zone: string) => `${time}.000${zone === 'Z' ? '+00:00' : zone}`);
}

export const projectWebUrl = (externalUrl: string, project: Project) => `${externalUrl}/${project.namespace.fullPath}/${project.path}`;

export function commitTitle(message: string): string {
  return message.trim() === '' ? 'No commit message' : message.split(/[\r\n]/, 1)[0]!;
}

/**
 * The title push payloads carry: the full title while it is under 100 characters, else
 * cut at the last space within the first 78 and ended with `...` (81 at most).
 */
export function hookCommitTitle(message: string): string {
  const chars = Array.from(commitTitle(message));
  if (chars.length < 100) return chars.join('');
  const room = 78;
  const space = chars.lastIndexOf(' ', room);
  return `${chars.slice(0, space >= 0 ? space : room).join('')}...`;
}

export function commitEntity(commit: CommitInfo, projectUrl: string) {
  return {
    id: commit.id,
    short_id: commit.id.slice(0, 8),
    created_at: gitTime(commit.committedDate),
    parent_ids: commit.parentIds,
    title: commitTitle(commit.message),
    message: commit.message,
    author_name: commit.authorName,
    author_email: commit.authorEmail,
    authored_date: gitTime(commit.authoredDate),
    committer_name: commit.committerName,
    committer_email: commit.committerEmail,
    committed_date: gitTime(commit.committedDate),
    trailers: {},
    extended_trailers: {},
    web_url: `${projectUrl}/-/commit/${commit.id}`,
  };
}

export function commitDetailEntity(
  commit: CommitInfo,
  projectUrl: string,
  projectId: number,
  stats: { additions: number; deletions: number; total: number } | null,
) {
  return {
    ...commitEntity(commit, projectUrl),
    ...(stats ? { stats } : {}),
    status: null,
    project_id: projectId,
    last_pipeline: null,
  };
}
