/**
 * Keeps runners consistent when projects and groups go away: assignments to a deleted
 * project end, a project runner passes to its next project or is deleted with its last
 * one, group runners are deleted with their group, and registration tokens are dropped.
 */
import type { Database } from '@forgekit/kernel';
import { RunnerEntity } from '../entities/runner.js';
import { RunnerProjectEntity } from '../entities/runner-project.js';
import type { RegistrationTokens } from '../registration/registration-tokens.js';
import type { RunnerStore } from '../runners/runner-store.js';

export function createOwnershipCleanup(database: Database, store: RunnerStore, registrationTokens: RegistrationTokens) {
  const runnerIds = async (owner: { ownerProjectId: number } | { groupId: number }) =>
    (await database.rows(database.from(RunnerEntity).where(owner))).map((runner) => runner.id);

  return {
    async projectDeleted(projectId: number) {
      const owned = await runnerIds({ ownerProjectId: projectId });
      const orphans = await database.transaction(async (tx) => {
        await database.delete(RunnerProjectEntity, { projectId }, { tx });
        const left: number[] = [];
        for (const id of owned) {
          const next = await database.row(database.from(RunnerProjectEntity).where('runnerId', id).orderBy('id'), { tx });
          if (next) await database.update(RunnerEntity, { id }, { ownerProjectId: next.projectId }, { tx });
          else left.push(id);
        }
        return left;
      });
      await store.remove(orphans);
      await registrationTokens.remove({ scope: 'project', scopeId: projectId });
    },
    async groupDeleted(groupId: number) {
      await store.remove(await runnerIds({ groupId }));
      await registrationTokens.remove({ scope: 'group', scopeId: groupId });
    },
  };
}
