/** Variables in the database: read and written by property. */
import type { Database, Transaction } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import { CiVariableEntity, type CiVariableRow } from '../entities/ci-variable.js';
import type { Owner } from './owner-kinds.js';
import type { Variable } from './variable-rules.js';

export type StoredVariable = CiVariableRow;

/** How many variables an owner has, and whether a key is taken in a scope. */
export interface Occupancy {
  count: number;
  taken: boolean;
}

const fields = (variable: Variable) => ({
  key: variable.key,
  value: variable.value,
  variableType: variable.variableType,
  protected: variable.protected,
  masked: variable.masked ?? false,
  hidden: variable.hidden,
  raw: variable.raw,
  environmentScope: variable.environmentScope,
  description: variable.description,
});

export function createVariableStore(database: Database) {
  const ofOwner = (owner: Owner) => database.from(CiVariableEntity).where({ ownerType: owner.kind, ownerId: owner.id });
  // The list is the hot path: compiled once.
  const page = database.prepareRows((p) =>
    database.from(CiVariableEntity).where({ ownerType: p.kind, ownerId: p.id }).orderBy('id').limit(p.limit).offset(p.offset),
  );

  // Creates are the hot write: the guard compiles once.
  const guardedInsert = database.prepareInsertGuarded(CiVariableEntity, (p) => ({
    unlessExists: database.from(CiVariableEntity).where({ ownerType: p.kind, ownerId: p.id, key: p.key, environmentScope: p.scope }),
    countOf: database.from(CiVariableEntity).where({ ownerType: p.kind, ownerId: p.id }),
    lockKey: `ci-variables:${p.kind}:${p.id}`,
  }));

  /** One statement: the owner's count, and how many others hold `key` in `scope`. */
  async function occupancy(owner: Owner, key: string, scope: string, exceptId = 0, tx?: Transaction): Promise<Occupancy> {
    const query = database
      .table(CiVariableEntity)
      .where({ ownerType: owner.kind, ownerId: owner.id })
      .count({ count: '*' })
      .countWhere('taken', (holder) => holder.where({ key, environmentScope: scope }).whereNot('id', exceptId));
    const totals = await database.totals<'count' | 'taken'>(query, { tx });
    return { count: totals.count ?? 0, taken: (totals.taken ?? 0) > 0 };
  }

  return {
    list: (owner: Owner, limit: number, offset: number): Promise<StoredVariable[]> => page.all({ kind: owner.kind, id: owner.id, limit, offset }),

    count: (owner: Owner) => database.count(ofOwner(owner)),

    /** Up to two variables with `key` (and `scope`, if given), oldest first: two means ambiguous. */
    findByKey(owner: Owner, key: string, scope?: string): Promise<StoredVariable[]> {
      const query = ofOwner(owner).where('key', key);
      if (scope !== undefined) query.where('environmentScope', scope);
      return database.rows(query.orderBy('id').limit(2));
    },

    occupancy,

    /**
     * Inserts unless the key is taken in its scope or the owner already has `limit` variables
     * (0: no limit), as one atomic step, so the limit holds when creates race. Returns the
     * stored variable, or what stood in the way.
     */
    async insert(owner: Owner, variable: Variable, limit: number): Promise<StoredVariable | Occupancy> {
      const now = new Date();
      const row: Omit<StoredVariable, 'id'> = { ownerType: owner.kind, ownerId: owner.id, ...fields(variable), createdAt: now, updatedAt: now };
      const id = await guardedInsert.run(row, { kind: owner.kind, id: owner.id, key: variable.key, scope: variable.environmentScope }, limit);
      return id === null ? occupancy(owner, variable.key, variable.environmentScope) : { id, ...row };
    },

    /** The stored variable, or null when another variable already has the new key and scope. */
    async update(previous: StoredVariable, variable: Variable): Promise<StoredVariable | null> {
      const changes = { ...fields(variable), updatedAt: new Date() };
      const updated = await unlessTaken(database.update(CiVariableEntity, { id: previous.id }, changes), () => null);
      return updated === null ? null : { ...previous, ...changes };
    },

    remove: (id: number) => database.delete(CiVariableEntity, { id }),
    removeAllOf: (owner: Owner) => database.delete(CiVariableEntity, { ownerType: owner.kind, ownerId: owner.id }),
  };
}

export type VariableStore = ReturnType<typeof createVariableStore>;
