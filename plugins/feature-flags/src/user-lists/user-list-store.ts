/** User lists and the per-project counter of their iids. */
import type { Database } from '@forgekit/kernel';
import type { EntityManager } from '@forgekit/kernel/orm';
import { FeatureFlagInternalId } from '../entities/feature-flag-internal-id.js';
import { FeatureFlagUserList, type FeatureFlagUserListRow } from '../entities/feature-flag-user-list.js';
import { whereNameMatches } from './user-list-search.js';

const USAGE = 'user_lists';

export function createUserListStore(database: Database) {
  const ofProject = (projectId: number) => database.legacy.from(FeatureFlagUserList).where('project_id', projectId);
  const matching = (projectId: number, search: string | null | undefined) => whereNameMatches(ofProject(projectId), 'name', search);

  /** The project's next iid (1, 2, ...); a deleted list's iid is not reused. */
  async function nextIid(em: EntityManager, projectId: number): Promise<number> {
    await database.legacy.lock(em, `feature-flags:iids:${projectId}:${USAGE}`);
    const key = { projectId, usage: USAGE };
    const counter = await database.legacy.row(
      FeatureFlagInternalId,
      database.legacy.from(FeatureFlagInternalId).where({ project_id: projectId, usage: USAGE }),
      { em },
    );
    const next = (counter?.lastValue ?? 0) + 1;
    if (counter) await em.nativeUpdate(FeatureFlagInternalId, key, { lastValue: next });
    else await em.insert(FeatureFlagInternalId, { ...key, lastValue: next });
    return next;
  }

  return {
    page: (projectId: number, search: string | null | undefined, limit: number, offset: number): Promise<FeatureFlagUserListRow[]> =>
      database.legacy.rows(FeatureFlagUserList, matching(projectId, search).orderBy('id').limit(limit).offset(offset)),
    count: (projectId: number, search: string | null | undefined) => database.legacy.count(matching(projectId, search)),

    findByIid: (projectId: number, iid: number): Promise<FeatureFlagUserListRow | undefined> =>
      database.legacy.row(FeatureFlagUserList, ofProject(projectId).where('iid', iid)),

    /** Whether another list of the project has this name (names compare case-sensitively). */
    async nameTaken(projectId: number, name: string, exceptId: number | null): Promise<boolean> {
      if (!name) return false;
      const query = ofProject(projectId).where('name', name);
      if (exceptId !== null) query.whereNot('id', exceptId);
      return (await database.legacy.count(query)) > 0;
    },

    /** The new list with its iid; the counter and the list are written in one transaction. */
    insert(projectId: number, values: { name: string; userXids: string }): Promise<FeatureFlagUserListRow> {
      return database.legacy.transaction(async (em) => {
        const now = new Date();
        const row = { projectId, iid: await nextIid(em, projectId), ...values, createdAt: now, updatedAt: now };
        return { id: Number(await em.insert<FeatureFlagUserListRow>(FeatureFlagUserList, row)), ...row };
      });
    },

    async update(list: FeatureFlagUserListRow, values: { name: string; userXids: string }): Promise<FeatureFlagUserListRow> {
      const changes = { ...values, updatedAt: new Date() };
      await database.legacy.em().nativeUpdate(FeatureFlagUserList, { id: list.id }, changes);
      return { ...list, ...changes };
    },

    remove: (id: number) => database.legacy.em().nativeDelete(FeatureFlagUserList, { id }),

    /** Drops a project's lists and its iid counters, inside `em`'s transaction. */
    async removeAllOf(em: EntityManager, projectId: number) {
      await em.nativeDelete(FeatureFlagUserList, { projectId });
      await em.nativeDelete(FeatureFlagInternalId, { projectId });
    },
  };
}

export type UserListStore = ReturnType<typeof createUserListStore>;
