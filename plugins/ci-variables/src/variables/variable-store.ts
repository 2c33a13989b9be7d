/** Variables in the database: reads through the entity, writes through the EntityManager. */
import type { Database } from '@forgekit/kernel';
import { unlessTaken, type EntityManager } from '@forgekit/kernel/orm';
import { CiVariable, type CiVariableRow } from '../entities/ci-variable.js';
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
  const ofOwner = (owner: Owner) => database.legacy.from(CiVariable).where({ owner_type: owner.kind, owner_id: owner.id });
  // The list is the hot path: compiled once.
  const page = database.legacy.prepareRows(CiVariable, (p) =>
    database.legacy.from(CiVariable).where({ owner_type: p.kind, owner_id: p.id }).orderBy('id').limit(p.limit).offset(p.offset),
  );

  // Creates are the hot write: the guard compiles once.
  const guardedInsert = database.legacy.prepareInsertGuarded(CiVariable, (p) => ({
    unlessExists: database.legacy.from(CiVariable).where({ owner_type: p.kind, owner_id: p.id, key: p.key, environment_scope: p.scope }),
    countOf: database.legacy.from(CiVariable).where({ owner_type: p.kind, owner_id: p.id }),
    lockKey: `ci-variables:${p.kind}:${p.id}`,
  }));

  /** One statement: the owner's count, and how many others hold `key` in `scope`. */
  async function occupancy(owner: Owner, key: string, scope: string, exceptId = 0, em?: EntityManager): Promise<Occupancy> {
    const holders = database.legacy.knex.raw('case when "key" = ? and environment_scope = ? and id <> ? then 1 end', [key, scope, exceptId]);
    const query = database.legacy.table(CiVariable).where({ owner_type: owner.kind, owner_id: owner.id }).count({ count: '*' }).count({ taken: holders });
    const totals = await database.legacy.totals<'count' | 'taken'>(query, { em });
    return { count: totals.count ?? 0, taken: (totals.taken ?? 0) > 0 };
  }

  return {
    list: (owner: Owner, limit: number, offset: number): Promise<StoredVariable[]> => page.all({ kind: owner.kind, id: owner.id, limit, offset }),

    count: (owner: Owner) => database.legacy.count(ofOwner(owner)),

    /** Up to two variables with `key` (and `scope`, if given), oldest first: two means ambiguous. */
    findByKey(owner: Owner, key: string, scope?: string): Promise<StoredVariable[]> {
      const query = ofOwner(owner).where('key', key);
      if (scope !== undefined) query.where('environment_scope', scope);
      return database.legacy.rows(CiVariable, query.orderBy('id').limit(2));
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
      const updated = await unlessTaken(database.legacy.em().nativeUpdate(CiVariable, { id: previous.id }, changes), () => null);
      return updated === null ? null : { ...previous, ...changes };
    },

    remove: (id: number) => database.legacy.em().nativeDelete(CiVariable, { id }),
    removeAllOf: (owner: Owner) => database.legacy.em().nativeDelete(CiVariable, { ownerType: owner.kind, ownerId: owner.id }),
  };
}

export type VariableStore = ReturnType<typeof createVariableStore>;
