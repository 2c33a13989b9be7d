/**
 * Repository housekeeping: every write adds objects (fast-import writes a small pack per
 * commit), so after a number of writes the recent small packs are rolled up by a geometric
 * repack (work in proportion to what was written, not to the repository), then `git gc
 * --auto` does the rest, in a job, never while the repository is read-only for a move.
 */
import type { JobService, Logger } from '@forgekit/kernel';
import { git } from '../git/git-runner.js';
import type { RepositoryService } from '../storage/repository-service.js';

/** Writes to one repository between housekeeping runs. */
export const WRITES_PER_HOUSEKEEPING = 25;
export const HOUSEKEEPING_JOB = 'repositories:housekeeping';

export function createHousekeeping(repos: RepositoryService, jobs: Pick<JobService, 'enqueue'>, log: Logger) {
  const writes = new Map<number, number>();
  return {
    /** Counts a write; every few writes, queues housekeeping for the repository. */
    async noteWrite(repositoryId: number) {
      const count = (writes.get(repositoryId) ?? 0) + 1;
      writes.set(repositoryId, count % WRITES_PER_HOUSEKEEPING);
      if (count >= WRITES_PER_HOUSEKEEPING) await jobs.enqueue(HOUSEKEEPING_JOB, { repositoryId }, { singletonKey: String(repositoryId) });
    },
    /** The job: `git gc --auto` on one repository, or on all of them when no id is given. */
    async run(data: { repositoryId?: number } = {}) {
      const ids = data.repositoryId ? [data.repositoryId] : await repos.allIds();
      for (const id of ids) {
        const repository = await repos.findById(id);
        if (!repository || repository.readOnly) continue;
        await repos
          .writing(repository, async () => {
            await repos.releasePacks(repository);
            // The small packs of recent writes are rolled up without rewriting the large ones;
            // git older than 2.32 has no --geometric and is left to gc's full repack.
            await git(repository.gitDir, ['repack', '-d', '-l', '-q', '--geometric=2', '--no-write-bitmap-index']).catch(() => undefined);
            return git(repository.gitDir, ['-c', 'gc.auto=6700', '-c', `gc.autoPackLimit=${WRITES_PER_HOUSEKEEPING - 5}`, 'gc', '--auto', '--quiet']);
          })
          .catch((error) => log.warn({ err: error, repositoryId: id }, 'repository housekeeping failed'));
      }
    },
  };
}
