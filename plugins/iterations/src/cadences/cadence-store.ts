/** Iteration cadences in the database, by property. */
import type { Database, Transaction } from '@forgekit/kernel';
import type { IterationCadence as CadenceShape } from '../contracts.js';
import { IterationCadenceEntity } from '../entities/iteration-cadence.js';

/** A stored cadence: the entity's row, whose nullable columns read back as null. */
export type StoredCadence = CadenceShape;
export type CadenceFields = Omit<StoredCadence, 'id' | 'groupId' | 'createdAt' | 'updatedAt'>;
const stored = (rows: object[]) => rows as StoredCadence[];

export function createCadenceStore(database: Database) {
  const cadences = () => database.from(IterationCadenceEntity);
  return {
    pageOfGroup: async (groupId: number, limit: number, offset: number) =>
      stored(await database.rows(cadences().where('groupId', groupId).orderBy('id').limit(limit).offset(offset))),
    countOfGroup: (groupId: number) => database.count(cadences().where('groupId', groupId)),
    ofGroup: async (groupId: number) => stored(await database.rows(cadences().where('groupId', groupId).orderBy('id'))),
    byId: async (id: number) => (await database.row(cadences().where('id', id))) as StoredCadence | undefined,
    /** Active automatic cadences, the ones the periodic run keeps scheduled. */
    scheduled: async () => stored(await database.rows(cadences().where({ automatic: true, active: true }).orderBy('id'))),
    async insert(groupId: number, fields: CadenceFields): Promise<StoredCadence> {
      const now = new Date();
      const row = { groupId, ...fields, createdAt: now, updatedAt: now };
      const id = await database.insert(IterationCadenceEntity, row);
      return { id, ...row };
    },
    async update(previous: StoredCadence, fields: CadenceFields, tx?: Transaction): Promise<StoredCadence> {
      const changes = { ...fields, updatedAt: new Date() };
      await database.update(IterationCadenceEntity, { id: previous.id }, changes, { tx });
      return { ...previous, ...changes };
    },
    remove: (id: number, tx: Transaction) => database.delete(IterationCadenceEntity, { id }, { tx }),
    removeOfGroup: (groupId: number) => database.delete(IterationCadenceEntity, { groupId }),
    transaction: <T>(work: (tx: Transaction) => Promise<T>) => database.transaction(work),
  };
}

export type CadenceStore = ReturnType<typeof createCadenceStore>;
