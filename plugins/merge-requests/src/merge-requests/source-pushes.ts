/**
 * A push to the source branch of open merge requests: a new version of the diff, GitLab's
 * `added N commits` system note listing the new commits, and a fresh `updated_at`.
 */
import type { NotesService } from '@forgekit/plugin-notes/contracts';
import { commitTitle, type RefsUpdated, type RepositoryReads } from '@forgekit/plugin-repositories/contracts';
import type { MergeRequestGit } from './mr-git.js';
import type { MergeRequestStore } from './mr-store.js';

const BRANCH_PREFIX = 'refs/heads/';

/** GitLab's SystemNotes::CommitService#add_commits text (without the version comparison link: versions are not kept). */
export function addedCommitsNote(commits: readonly { id: string; title: string }[]): string {
  const count = `${commits.length} commit${commits.length === 1 ? '' : 's'}`;
  const items = commits.map((commit) => `<li>${commit.id.slice(0, 8)} - ${commit.title}</li>`).join('');
  return `added ${count}\n\n<ul>${items}</ul>`;
}

export function sourcePushes(deps: { store: MergeRequestStore; git: MergeRequestGit; reads: RepositoryReads; notes: NotesService }) {
  return async ({ repository, updates, pusher }: RefsUpdated): Promise<void> => {
    if (repository.kind !== 'project') return;
    const moved = updates.filter((update) => update.ref.startsWith(BRANCH_PREFIX) && update.before && update.after);
    if (moved.length === 0) return;
    const open = await deps.store.openFromBranches(
      repository.containerId,
      moved.map((update) => update.ref.slice(BRANCH_PREFIX.length)),
    );
    for (const mr of open) {
      const update = moved.find((candidate) => candidate.ref === `${BRANCH_PREFIX}${mr.sourceBranch}`)!;
      const commits = await deps.reads.listCommits(repository, { revisions: [update.after!], exclude: [update.before!] });
      if (commits.length === 0) continue;
      const titled = commits.map((commit) => ({ id: commit.id, title: commitTitle(commit.message) }));
      const refs = await deps.git.refs(repository, mr);
      await deps.store.update(mr, { updatedAt: new Date() }, {}, async (tx, stored) => {
        if (refs.head_sha) await deps.store.addVersion(tx, stored.id, { head: refs.head_sha, base: refs.base_sha, start: refs.start_sha });
        await deps.notes.recordSystemNote({
          noteableType: 'MergeRequest',
          noteableId: stored.id,
          noteableIid: stored.iid,
          projectId: stored.projectId,
          authorId: pusher?.id ?? stored.authorId,
          body: addedCommitsNote(titled),
          tx,
        });
      });
    }
  };
}
