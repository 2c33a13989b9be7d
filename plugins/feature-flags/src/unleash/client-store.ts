/** The Unleash instance id of each project. */
import type { Database } from '@forgekit/kernel';
import { unlessTaken, type EntityManager } from '@forgekit/kernel/orm';
import { FeatureFlagsClient, type FeatureFlagsClientRow } from '../entities/feature-flags-client.js';

export function createClientStore(database: Database) {
  const find = (projectId: number): Promise<FeatureFlagsClientRow | undefined> =>
    database.legacy.row(FeatureFlagsClient, database.legacy.from(FeatureFlagsClient).where('project_id', projectId));

  return {
    find,

    /** The project's token: `token` when it had none, else the one a concurrent first use stored. */
    async insertUnlessExists(projectId: number, token: string): Promise<string> {
      const now = new Date();
      await unlessTaken(database.legacy.em().insert(FeatureFlagsClient, { projectId, token, createdAt: now, updatedAt: now }), () => null);
      return (await find(projectId))!.token;
    },

    /** Stores `token` as the project's, replacing any other. */
    async replace(projectId: number, token: string) {
      const now = new Date();
      await database.legacy.em().upsert(
        FeatureFlagsClient,
        { projectId, token, createdAt: now, updatedAt: now },
        {
          onConflictFields: ['projectId'],
          onConflictAction: 'merge',
          onConflictMergeFields: ['token', 'updatedAt'],
        },
      );
    },

    removeAllOf: (em: EntityManager, projectId: number) => em.nativeDelete(FeatureFlagsClient, { projectId }),
  };
}

export type ClientStore = ReturnType<typeof createClientStore>;
