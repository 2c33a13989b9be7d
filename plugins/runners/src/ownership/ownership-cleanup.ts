/**
 * Keeps runners consistent when projects and groups go away: assignments to a deleted
 * project end, a project runner passes to its next project or is deleted with its last
 * one, group runners are deleted with their group, and registration tokens are dropped.
 */
import type { Database } from '@forgekit/kernel';
import { CiRunner } from '../entities/runner.js';
import { CiRunnerProject } from '../entities/runner-project.js';
import type { RegistrationTokens } from '../registration/registration-tokens.js';
import type { RunnerStore } from '../runners/runner-store.js';

export function createOwnershipCleanup(database: Database, store: RunnerStore, registrationTokens: RegistrationTokens) {
  const idsOf = async (query: ReturnType<Database['legacy']['from']>) => (await database.legacy.rows(CiRunner, query)).map((runner) => runner.id);

  return {
    async projectDeleted(projectId: number) {
      const owned = await idsOf(database.legacy.from(CiRunner).where('owner_project_id', projectId));
      const orphans = await database.legacy.transaction(async (em) => {
        await em.nativeDelete(CiRunnerProject, { projectId });
        const left: number[] = [];
        for (const id of owned) {
          const next = await database.legacy.row(CiRunnerProject, database.legacy.from(CiRunnerProject).where('runner_id', id).orderBy('id'), { em });
          if (next) await em.nativeUpdate(CiRunner, { id }, { ownerProjectId: next.projectId });
          else left.push(id);
        }
        return left;
      });
      await store.remove(orphans);
      await registrationTokens.remove({ scope: 'project', scopeId: projectId });
    },
    async groupDeleted(groupId: number) {
      await store.remove(await idsOf(database.legacy.from(CiRunner).where('group_id', groupId)));
      await registrationTokens.remove({ scope: 'group', scopeId: groupId });
    },
  };
}
