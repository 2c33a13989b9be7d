/** Iteration cadences in the database. */
import type { Database } from '@forgekit/kernel';
import type { EntityManager } from '@forgekit/kernel/orm';
import type { IterationCadence as CadenceShape } from '../contracts.js';
import { IterationCadence } from '../entities/iteration-cadence.js';

/** A stored cadence: the entity's row, whose nullable columns read back as null. */
export type StoredCadence = CadenceShape;
export type CadenceFields = Omit<StoredCadence, 'id' | 'groupId' | 'createdAt' | 'updatedAt'>;
const stored = (rows: object[]) => rows as StoredCadence[];

export function createCadenceStore(database: Database) {
  return {
    pageOfGroup: async (groupId: number, limit: number, offset: number) =>
      stored(
        await database.legacy.rows(
          IterationCadence,
          database.legacy.from(IterationCadence).where({ group_id: groupId }).orderBy('id').limit(limit).offset(offset),
        ),
      ),
    countOfGroup: (groupId: number) => database.legacy.count(database.legacy.from(IterationCadence).where({ group_id: groupId })),
    ofGroup: async (groupId: number) =>
      stored(await database.legacy.rows(IterationCadence, database.legacy.from(IterationCadence).where({ group_id: groupId }).orderBy('id'))),
    byId: async (id: number) =>
      (await database.legacy.row(IterationCadence, database.legacy.from(IterationCadence).where({ id }))) as StoredCadence | undefined,
    /** Active automatic cadences, the ones the periodic run keeps scheduled. */
    scheduled: async () =>
      stored(await database.legacy.rows(IterationCadence, database.legacy.from(IterationCadence).where({ automatic: true, active: true }).orderBy('id'))),
    async insert(groupId: number, fields: CadenceFields): Promise<StoredCadence> {
      const now = new Date();
      const row = { groupId, ...fields, createdAt: now, updatedAt: now };
      const id = await database.legacy.em().insert(IterationCadence, row);
      return { id, ...row };
    },
    async update(previous: StoredCadence, fields: CadenceFields, em: EntityManager = database.legacy.em()): Promise<StoredCadence> {
      const changes = { ...fields, updatedAt: new Date() };
      await em.nativeUpdate(IterationCadence, { id: previous.id }, changes);
      return { ...previous, ...changes };
    },
    remove: (id: number, em: EntityManager) => em.nativeDelete(IterationCadence, { id }),
    removeOfGroup: (groupId: number) => database.legacy.em().nativeDelete(IterationCadence, { groupId }),
    transaction: <T>(work: (em: EntityManager) => Promise<T>) => database.legacy.transaction(work),
  };
}

export type CadenceStore = ReturnType<typeof createCadenceStore>;
