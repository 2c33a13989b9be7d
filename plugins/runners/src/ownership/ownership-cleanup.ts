/**
 * Keeps runners consistent when projects and groups go away: assignments to a deleted
 * project end, a project runner passes to its next project or is deleted with its last
 * one, group runners are deleted with their group, and registration tokens are dropped.
 */
import type { Knex } from '@forgekit/kernel/orm';
import type { RegistrationTokens } from '../registration/registration-tokens.js';
import type { RunnerStore } from '../runners/runner-store.js';

export function createOwnershipCleanup(db: Knex, store: RunnerStore, registrationTokens: RegistrationTokens) {
  return {
    async projectDeleted(projectId: number) {
      const owned: { id: number }[] = await db('ci_runners').where('owner_project_id', projectId).select('id');
      await db('ci_runner_projects').where('project_id', projectId).delete();
      const orphans: number[] = [];
      for (const { id } of owned) {
        const next = await db('ci_runner_projects').where('runner_id', id).orderBy('id').first('project_id');
        if (next) await db('ci_runners').where('id', id).update({ owner_project_id: next.project_id });
        else orphans.push(id);
      }
      await store.remove(orphans);
      await registrationTokens.remove({ scope: 'project', scopeId: projectId });
    },
    async groupDeleted(groupId: number) {
      const owned: { id: number }[] = await db('ci_runners').where('group_id', groupId).select('id');
      await store.remove(owned.map((row) => row.id));
      await registrationTokens.remove({ scope: 'group', scopeId: groupId });
    },
  };
}
