/** Protected branches and their access levels, as stored. */
import { containsText, toBool, toIso, type Knex } from '@forgekit/kernel/orm';

export const PROTECTION_ACTIONS = ['push', 'merge', 'unprotect'] as const;
export type ProtectionAction = (typeof PROTECTION_ACTIONS)[number];

export interface AccessRule {
  id: number;
  accessLevel: number;
}

export interface ProtectedBranch {
  id: number;
  projectId: number;
  /** A branch name or a `*` pattern. */
  name: string;
  allowForcePush: boolean;
  codeOwnerApprovalRequired: boolean;
  updatedAt: string;
  rules: Record<ProtectionAction, AccessRule[]>;
}

export interface NewProtectedBranch {
  name: string;
  allowForcePush: boolean;
  codeOwnerApprovalRequired: boolean;
  levels: Record<ProtectionAction, number[]>;
}

export interface ProtectedBranchChange {
  allowForcePush?: boolean;
  codeOwnerApprovalRequired?: boolean;
  /** Access levels to add, change (by rule id) or remove (by rule id). */
  add?: { action: ProtectionAction; accessLevel: number }[];
  change?: { id: number; accessLevel: number }[];
  remove?: number[];
}

interface BranchRow {
  id: number;
  project_id: number;
  name: string;
  allow_force_push: unknown;
  code_owner_approval_required: unknown;
  updated_at: unknown;
}

interface LevelRow {
  id: number;
  protected_branch_id: number;
  action: ProtectionAction;
  access_level: number;
}

export function createProtectedBranchStore(db: Knex) {
  async function withRules(rows: BranchRow[]): Promise<ProtectedBranch[]> {
    if (rows.length === 0) return [];
    const levels: LevelRow[] = await db('protected_branch_access_levels')
      .whereIn(
        'protected_branch_id',
        rows.map((row) => row.id),
      )
      .orderBy('id');
    return rows.map((row) => {
      const rules: Record<ProtectionAction, AccessRule[]> = { push: [], merge: [], unprotect: [] };
      for (const level of levels) {
        if (level.protected_branch_id === row.id && rules[level.action]) rules[level.action].push({ id: level.id, accessLevel: level.access_level });
      }
      return {
        id: row.id,
        projectId: row.project_id,
        name: row.name,
        allowForcePush: toBool(row.allow_force_push),
        codeOwnerApprovalRequired: toBool(row.code_owner_approval_required),
        updatedAt: toIso(row.updated_at as never) ?? new Date(0).toISOString(),
        rules,
      };
    });
  }

  const searched = (projectId: number, search: string | null | undefined) => {
    const query = db<BranchRow>('protected_branches').where('project_id', projectId);
    if (search) query.where(containsText(db, 'name', search));
    return query;
  };

  async function addLevels(trx: Knex, branchId: number, levels: { action: ProtectionAction; accessLevel: number }[]) {
    if (levels.length === 0) return;
    const now = new Date();
    await trx('protected_branch_access_levels').insert(
      levels.map((level) => ({ protected_branch_id: branchId, action: level.action, access_level: level.accessLevel, created_at: now })),
    );
  }

  const store = {
    /** Every protected branch of a project (for checks), oldest first. */
    async forProject(projectId: number): Promise<ProtectedBranch[]> {
      return withRules(await db<BranchRow>('protected_branches').where('project_id', projectId).orderBy('id'));
    },
    async page(projectId: number, search: string | null | undefined, limit: number, offset: number) {
      return withRules(await searched(projectId, search).orderBy('id').limit(limit).offset(offset));
    },
    async count(projectId: number, search: string | null | undefined): Promise<number> {
      const row = await searched(projectId, search).count({ count: '*' }).first();
      return Number(row?.count ?? 0);
    },
    async find(projectId: number, name: string): Promise<ProtectedBranch | null> {
      const rows = await db<BranchRow>('protected_branches').where({ project_id: projectId, name });
      return (await withRules(rows))[0] ?? null;
    },
    /** Creates the protected branch; null when the project already has one of that name. */
    async create(projectId: number, input: NewProtectedBranch): Promise<ProtectedBranch | null> {
      try {
        const id = await db.transaction(async (trx) => {
          const now = new Date();
          const [row] = await trx('protected_branches')
            .insert({
              project_id: projectId,
              name: input.name,
              allow_force_push: input.allowForcePush,
              code_owner_approval_required: input.codeOwnerApprovalRequired,
              created_at: now,
              updated_at: now,
            })
            .returning('id');
          const branchId = typeof row === 'object' ? (row as { id: number }).id : (row as number);
          await addLevels(
            trx,
            branchId,
            PROTECTION_ACTIONS.flatMap((action) => input.levels[action].map((accessLevel) => ({ action, accessLevel }))),
          );
          return branchId;
        });
        return (await withRules(await db<BranchRow>('protected_branches').where('id', id)))[0]!;
      } catch (error) {
        if (await store.find(projectId, input.name)) return null;
        throw error;
      }
    },
    async update(branch: ProtectedBranch, change: ProtectedBranchChange): Promise<ProtectedBranch> {
      await db.transaction(async (trx) => {
        const columns: Record<string, unknown> = { updated_at: new Date() };
        if (change.allowForcePush !== undefined) columns.allow_force_push = change.allowForcePush;
        if (change.codeOwnerApprovalRequired !== undefined) columns.code_owner_approval_required = change.codeOwnerApprovalRequired;
        await trx('protected_branches').where('id', branch.id).update(columns);
        if (change.remove?.length) await trx('protected_branch_access_levels').where('protected_branch_id', branch.id).whereIn('id', change.remove).delete();
        for (const { id, accessLevel } of change.change ?? []) {
          await trx('protected_branch_access_levels').where({ protected_branch_id: branch.id, id }).update({ access_level: accessLevel });
        }
        await addLevels(trx, branch.id, change.add ?? []);
      });
      return (await withRules(await db<BranchRow>('protected_branches').where('id', branch.id)))[0]!;
    },
    async remove(id: number): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('protected_branch_access_levels').where('protected_branch_id', id).delete();
        await trx('protected_branches').where('id', id).delete();
      });
    },
    async removeProject(projectId: number): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('protected_branch_access_levels')
          .whereIn('protected_branch_id', trx('protected_branches').where('project_id', projectId).select('id'))
          .delete();
        await trx('protected_branches').where('project_id', projectId).delete();
      });
    },
  };
  return store;
}

export type ProtectedBranchStore = ReturnType<typeof createProtectedBranchStore>;
