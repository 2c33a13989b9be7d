/** Lean SQL for variables: one statement per operation on the hot paths. */
import type { Database } from '@forgekit/kernel';
import { toBool, toIso, type Knex } from '@forgekit/kernel/orm';
import type { Owner } from './owner-kinds.js';
import type { Variable, VariableType } from './variable-rules.js';

const TABLE = 'ci_variables';
const COLUMNS = ['id', 'key', 'value', 'variable_type', 'protected', 'masked', 'hidden', 'raw', 'environment_scope', 'description', 'updated_at'];

export interface StoredVariable extends Variable {
  id: number;
  masked: boolean;
  updatedAt: string;
}

interface Row {
  id: number;
  key: string;
  value: string;
  variable_type: string;
  protected: unknown;
  masked: unknown;
  hidden: unknown;
  raw: unknown;
  environment_scope: string;
  description: string | null;
  updated_at: unknown;
}

const fromRow = (row: Row): StoredVariable => ({
  id: Number(row.id),
  key: row.key,
  value: row.value,
  variableType: row.variable_type as VariableType,
  protected: toBool(row.protected),
  masked: toBool(row.masked),
  hidden: toBool(row.hidden),
  raw: toBool(row.raw),
  environmentScope: row.environment_scope,
  description: row.description,
  updatedAt: toIso(row.updated_at)!,
});

function toColumns(variable: Variable) {
  return {
    key: variable.key,
    value: variable.value,
    variable_type: variable.variableType,
    protected: variable.protected,
    masked: variable.masked,
    hidden: variable.hidden,
    raw: variable.raw,
    environment_scope: variable.environmentScope,
    description: variable.description,
  };
}

/** PostgreSQL unique_violation, or SQLite's constraint error. */
const isUniqueViolation = (error: unknown) => {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return code === '23505' || (code === 'SQLITE_CONSTRAINT' && /UNIQUE/i.test(message ?? ''));
};

/** Raw results: PostgreSQL gives `{ rows }`, SQLite an array. */
const rowsOf = (result: unknown): unknown[] => (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? []));

export function createVariableStore(database: Database) {
  const db = database.knex;
  const ofOwner = (owner: Owner) => db(TABLE).where({ owner_type: owner.kind, owner_id: owner.id });

  return {
    /** A prepared read: the list is the hot path. */
    async list(owner: Owner, limit: number, offset: number): Promise<StoredVariable[]> {
      const rows = await database.read<Row>(ofOwner(owner).orderBy('id').limit(limit).offset(offset).select(COLUMNS));
      return rows.map(fromRow);
    },

    async count(owner: Owner): Promise<number> {
      const [row] = await ofOwner(owner).count({ n: '*' });
      return Number(row!.n);
    },

    /** Up to two variables with `key` (and `scope`, if given), oldest first: two means ambiguous. */
    async findByKey(owner: Owner, key: string, scope?: string): Promise<StoredVariable[]> {
      const query = ofOwner(owner).where('key', key);
      if (scope !== undefined) query.where('environment_scope', scope);
      const rows: Row[] = await query.orderBy('id').limit(2).select(COLUMNS);
      return rows.map(fromRow);
    },

    /** How many variables the owner has, and whether `key` is taken in `scope` by another one. */
    async occupancy(owner: Owner, key: string, scope: string, exceptId?: number): Promise<{ count: number; taken: boolean }> {
      const taken = db.raw('sum(case when "key" = ? and environment_scope = ? and id <> ? then 1 else 0 end) as taken', [key, scope, exceptId ?? 0]);
      const [row] = await ofOwner(owner).select(db.raw('count(*) as n'), taken);
      return { count: Number(row.n), taken: Number(row.taken ?? 0) > 0 };
    },

    /**
     * Inserts unless the key is taken in its scope or the owner already has `limit`
     * variables (0: no limit), in one statement. Returns false when it did not insert.
     */
    async insertGuarded(owner: Owner, variable: Variable, limit: number): Promise<boolean> {
      const now = new Date();
      // Casts give PostgreSQL the parameter types a bare SELECT list lacks; SQLite accepts them too.
      const values: [unknown, string][] = [
        [owner.kind, 'varchar(16)'],
        [owner.id, 'integer'],
        ...Object.values(toColumns(variable)).map((value): [unknown, string] => [value, typeof value === 'boolean' ? 'boolean' : 'text']),
        [now, 'timestamptz'],
        [now, 'timestamptz'],
      ];
      const columns = ['owner_type', 'owner_id', ...Object.keys(toColumns(variable)), 'created_at', 'updated_at'].map((c) => `"${c}"`).join(', ');
      const select = values.map(([, type]) => `cast(? as ${type})`).join(', ');
      const ownerFilter = `owner_type = ? and owner_id = ?`;
      let sql = `insert into ${TABLE} (${columns}) select ${select} where not exists (select 1 from ${TABLE} where ${ownerFilter} and "key" = ? and environment_scope = ?)`;
      const bindings: unknown[] = [...values.map(([value]) => value), owner.kind, owner.id, variable.key, variable.environmentScope];
      if (limit > 0) {
        sql += ` and (select count(*) from ${TABLE} where ${ownerFilter}) < ?`;
        bindings.push(owner.kind, owner.id, limit);
      }
      try {
        return rowsOf(await db.raw(`${sql} returning id`, bindings as Knex.RawBinding[])).length > 0;
      } catch (error) {
        // Two requests raced for the same key and scope.
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    /** Returns false when another variable already has the new key and scope. */
    async update(id: number, variable: Variable): Promise<{ updated: boolean; updatedAt: string }> {
      const now = new Date();
      try {
        await db(TABLE).where('id', id).update({ ...toColumns(variable), updated_at: now });
        return { updated: true, updatedAt: now.toISOString() };
      } catch (error) {
        if (isUniqueViolation(error)) return { updated: false, updatedAt: now.toISOString() };
        throw error;
      }
    },

    remove: (id: number) => db(TABLE).where('id', id).delete(),
    removeAllOf: (owner: Owner) => ofOwner(owner).delete(),
  };
}

export type VariableStore = ReturnType<typeof createVariableStore>;
