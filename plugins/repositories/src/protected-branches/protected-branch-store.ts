/** Protected branches and their access levels: reads through the entities, writes through the EntityManager. */
import type { Database } from '@forgekit/kernel';
import { containsText, unlessTaken, type EntityManager } from '@forgekit/kernel/orm';
import { ProtectedBranchAccessLevelRecord, ProtectedBranchRecord, type ProtectedBranchRow } from '../entities/protected-branch.js';

export const PROTECTION_ACTIONS = ['push', 'merge', 'unprotect'] as const;
export type ProtectionAction = (typeof PROTECTION_ACTIONS)[number];

export interface AccessRule {
  id: number;
  accessLevel: number;
}

export type ProtectedBranch = Omit<ProtectedBranchRow, 'createdAt'> & { rules: Record<ProtectionAction, AccessRule[]> };

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

export function createProtectedBranchStore(database: Database) {
  const branches = () => database.legacy.from(ProtectedBranchRecord);
  // Read on every push and branch list: compiled once.
  const ofProject = database.legacy.prepareRows(ProtectedBranchRecord, (p) => branches().where({ project_id: p.projectId }).orderBy('id'));
  const byId = database.legacy.prepareRows(ProtectedBranchRecord, (p) => branches().where({ id: p.id }));

  async function withRules(rows: ProtectedBranchRow[]): Promise<ProtectedBranch[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const levels = await database.legacy.rows(
      ProtectedBranchAccessLevelRecord,
      database.legacy.from(ProtectedBranchAccessLevelRecord).whereIn('protected_branch_id', ids).orderBy('id'),
    );
    return rows.map(({ createdAt: _, ...row }) => {
      const rules: Record<ProtectionAction, AccessRule[]> = { push: [], merge: [], unprotect: [] };
      for (const level of levels) {
        if (level.protectedBranchId === row.id) rules[level.action as ProtectionAction]?.push({ id: level.id, accessLevel: level.accessLevel });
      }
      return { ...row, rules };
    });
  }

  const searched = (projectId: number, search: string | null | undefined) => {
    const query = branches().where('project_id', projectId);
    if (search) query.where(containsText(query, 'name', search));
    return query;
  };

  async function addLevels(em: EntityManager, branchId: number, levels: { action: ProtectionAction; accessLevel: number }[]) {
    if (levels.length === 0) return;
    const createdAt = new Date();
    await em.insertMany(
      ProtectedBranchAccessLevelRecord,
      levels.map((level) => ({ protectedBranchId: branchId, action: level.action, accessLevel: level.accessLevel, createdAt })),
    );
  }

  const reload = async (id: number) => (await withRules(await byId.all({ id })))[0]!;

  return {
    /** Every protected branch of a project (for checks), oldest first. */
    forProject: async (projectId: number): Promise<ProtectedBranch[]> => withRules(await ofProject.all({ projectId })),
    page: async (projectId: number, search: string | null | undefined, limit: number, offset: number) =>
      withRules(await database.legacy.rows(ProtectedBranchRecord, searched(projectId, search).orderBy('id').limit(limit).offset(offset))),
    count: (projectId: number, search: string | null | undefined): Promise<number> => database.legacy.count(searched(projectId, search)),
    async find(projectId: number, name: string): Promise<ProtectedBranch | null> {
      return (await withRules(await database.legacy.rows(ProtectedBranchRecord, branches().where({ project_id: projectId, name }))))[0] ?? null;
    },
    /** Creates the protected branch; null when the project already has one of that name. */
    async create(projectId: number, input: NewProtectedBranch): Promise<ProtectedBranch | null> {
      const write = database.legacy.transaction(async (em) => {
        const now = new Date();
        const branchId = await em.insert(ProtectedBranchRecord, {
          projectId,
          name: input.name,
          allowForcePush: input.allowForcePush,
          codeOwnerApprovalRequired: input.codeOwnerApprovalRequired,
          createdAt: now,
          updatedAt: now,
        });
        await addLevels(
          em,
          branchId,
          PROTECTION_ACTIONS.flatMap((action) => input.levels[action].map((accessLevel) => ({ action, accessLevel }))),
        );
        return branchId;
      });
      const id = await unlessTaken(write, () => null);
      return id === null ? null : reload(id);
    },
    async update(branch: ProtectedBranch, change: ProtectedBranchChange): Promise<ProtectedBranch> {
      await database.legacy.transaction(async (em) => {
        const columns: Partial<ProtectedBranchRow> = { updatedAt: new Date() };
        if (change.allowForcePush !== undefined) columns.allowForcePush = change.allowForcePush;
        if (change.codeOwnerApprovalRequired !== undefined) columns.codeOwnerApprovalRequired = change.codeOwnerApprovalRequired;
        await em.nativeUpdate(ProtectedBranchRecord, { id: branch.id }, columns);
        if (change.remove?.length) await em.nativeDelete(ProtectedBranchAccessLevelRecord, { protectedBranchId: branch.id, id: { $in: change.remove } });
        for (const { id, accessLevel } of change.change ?? []) {
          await em.nativeUpdate(ProtectedBranchAccessLevelRecord, { protectedBranchId: branch.id, id }, { accessLevel });
        }
        await addLevels(em, branch.id, change.add ?? []);
      });
      return reload(branch.id);
    },
    async remove(id: number): Promise<void> {
      await database.legacy.transaction(async (em) => {
        await em.nativeDelete(ProtectedBranchAccessLevelRecord, { protectedBranchId: id });
        await em.nativeDelete(ProtectedBranchRecord, { id });
      });
    },
    async removeProject(projectId: number): Promise<void> {
      const ids = (await ofProject.all({ projectId })).map((row) => row.id);
      if (ids.length === 0) return;
      await database.legacy.transaction(async (em) => {
        await em.nativeDelete(ProtectedBranchAccessLevelRecord, { protectedBranchId: { $in: ids } });
        await em.nativeDelete(ProtectedBranchRecord, { id: { $in: ids } });
      });
    },
  };
}

export type ProtectedBranchStore = ReturnType<typeof createProtectedBranchStore>;
