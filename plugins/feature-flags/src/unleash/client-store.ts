/** The Unleash instance id of each project. */
import type { Database, Transaction } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import { FeatureFlagsClientEntity, type FeatureFlagsClientRow } from '../entities/feature-flags-client.js';

export function createClientStore(database: Database) {
  const find = (projectId: number): Promise<FeatureFlagsClientRow | undefined> =>
    database.row(database.from(FeatureFlagsClientEntity).where('projectId', projectId));

  /** The project's first client. */
  const insert = (projectId: number, token: string, now: Date) =>
    database.insert(FeatureFlagsClientEntity, { projectId, token, createdAt: now, updatedAt: now });

  return {
    find,

    /** The project's token: `token` when it had none, else the one a concurrent first use stored. */
    async insertUnlessExists(projectId: number, token: string): Promise<string> {
      await unlessTaken(insert(projectId, token, new Date()), () => null);
      return (await find(projectId))!.token;
    },

    /** Stores `token` as the project's, replacing any other; the client keeps its creation time. */
    async replace(projectId: number, token: string) {
      const now = new Date();
      const replaced = () => database.update(FeatureFlagsClientEntity, { projectId }, { token, updatedAt: now });
      if ((await replaced()) > 0) return;
      // No client yet; one a concurrent first use stored meanwhile is replaced instead.
      await unlessTaken(insert(projectId, token, now), replaced);
    },

    removeAllOf: (tx: Transaction, projectId: number) => database.delete(FeatureFlagsClientEntity, { projectId }, { tx }),
  };
}

export type ClientStore = ReturnType<typeof createClientStore>;
