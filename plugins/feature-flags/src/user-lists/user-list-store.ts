/** User lists and the per-project counter of their iids. */
import type { Database, Transaction } from '@forgekit/kernel';
import { FeatureFlagInternalIdEntity } from '../entities/feature-flag-internal-id.js';
import { FeatureFlagUserListEntity, type FeatureFlagUserListRow } from '../entities/feature-flag-user-list.js';
import { whereNameMatches } from './user-list-search.js';

const USAGE = 'user_lists';

export function createUserListStore(database: Database) {
  const ofProject = (projectId: number) => database.from(FeatureFlagUserListEntity).where('projectId', projectId);
  const matching = (projectId: number, search: string | null | undefined) => whereNameMatches(ofProject(projectId), search);

  /** The project's next iid (1, 2, ...); a deleted list's iid is not reused. */
  async function nextIid(tx: Transaction, projectId: number): Promise<number> {
    await database.lock(tx, `feature-flags:iids:${projectId}:${USAGE}`);
    const key = { projectId, usage: USAGE };
    const counter = await database.row(database.from(FeatureFlagInternalIdEntity).where(key), { tx });
    const next = (counter?.lastValue ?? 0) + 1;
    if (counter) await database.update(FeatureFlagInternalIdEntity, key, { lastValue: next }, { tx });
    else await database.insert(FeatureFlagInternalIdEntity, { ...key, lastValue: next }, { tx });
    return next;
  }

  return {
    page: (projectId: number, search: string | null | undefined, limit: number, offset: number): Promise<FeatureFlagUserListRow[]> =>
      database.rows(matching(projectId, search).orderBy('id').limit(limit).offset(offset)),
    count: (projectId: number, search: string | null | undefined) => database.count(matching(projectId, search)),

    findByIid: (projectId: number, iid: number): Promise<FeatureFlagUserListRow | undefined> => database.row(ofProject(projectId).where('iid', iid)),

    /** Whether another list of the project has this name (names compare case-sensitively). */
    async nameTaken(projectId: number, name: string, exceptId: number | null): Promise<boolean> {
      if (!name) return false;
      const query = ofProject(projectId).where('name', name);
      if (exceptId !== null) query.whereNot('id', exceptId);
      return (await database.count(query)) > 0;
    },

    /** The new list with its iid; the counter and the list are written in one transaction. */
    insert(projectId: number, values: { name: string; userXids: string }): Promise<FeatureFlagUserListRow> {
      return database.transaction(async (tx) => {
        const now = new Date();
        const row = { projectId, iid: await nextIid(tx, projectId), ...values, createdAt: now, updatedAt: now };
        return { id: await database.insert(FeatureFlagUserListEntity, row, { tx }), ...row };
      });
    },

    async update(list: FeatureFlagUserListRow, values: { name: string; userXids: string }): Promise<FeatureFlagUserListRow> {
      const changes = { ...values, updatedAt: new Date() };
      await database.update(FeatureFlagUserListEntity, { id: list.id }, changes);
      return { ...list, ...changes };
    },

    remove: (id: number) => database.delete(FeatureFlagUserListEntity, { id }),

    /** Drops a project's lists and its iid counters, inside `tx`. */
    async removeAllOf(tx: Transaction, projectId: number) {
      await database.delete(FeatureFlagUserListEntity, { projectId }, { tx });
      await database.delete(FeatureFlagInternalIdEntity, { projectId }, { tx });
    },
  };
}

export type UserListStore = ReturnType<typeof createUserListStore>;
