/** Protected branches and their access levels, read and written by property. */
import { patchFrom, type Database, type Transaction } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import { ProtectedBranchAccessLevelEntity, ProtectedBranchEntity, type ProtectedBranchRow } from '../entities/protected-branch.js';
import { PROTECTION_ACTIONS, type AccessRule, type ProtectedBranch, type ProtectionAction } from './protected-branch.js';

export { PROTECTION_ACTIONS, type AccessRule, type ProtectedBranch, type ProtectionAction } from './protected-branch.js';

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
  const branches = () => database.from(ProtectedBranchEntity);
  // Read on every push and branch list: compiled once.
  const ofProject = database.prepareRows((p) => branches().where('projectId', p.projectId).orderBy('id'));
  const byId = database.prepareRows((p) => branches().where('id', p.id));
  const levelsOf = database.prepareRows((p) => database.from(ProtectedBranchAccessLevelEntity).whereIn('protectedBranchId', p.ids).orderBy('id'));

  async function withRules(rows: ProtectedBranchRow[]): Promise<ProtectedBranch[]> {
    if (rows.length === 0) return [];
    const levels = await levelsOf.all({ ids: rows.map((row) => row.id) });
    return rows.map(({ createdAt: _, ...row }) => {
      const rules: Record<ProtectionAction, AccessRule[]> = { push: [], merge: [], unprotect: [] };
      for (const level of levels) {
        if (level.protectedBranchId === row.id) rules[level.action as ProtectionAction]?.push({ id: level.id, accessLevel: level.accessLevel });
      }
      return { ...row, rules };
    });
  }

  const searched = (projectId: number, search: string | null | undefined) => {
    const query = branches().where('projectId', projectId);
    if (search) query.whereContains(['name'], search);
    return query;
  };

  const addLevels = (tx: Transaction, protectedBranchId: number, levels: { action: ProtectionAction; accessLevel: number }[]) => {
    const createdAt = new Date();
    return database.insertMany(
      ProtectedBranchAccessLevelEntity,
      levels.map((level) => ({ protectedBranchId, ...level, createdAt })),
      { tx },
    );
  };

  const reload = async (id: number) => (await withRules(await byId.all({ id })))[0]!;

  return {
    /** Every protected branch of a project (for checks), oldest first. */
    forProject: async (projectId: number): Promise<ProtectedBranch[]> => withRules(await ofProject.all({ projectId })),
    page: async (projectId: number, search: string | null | undefined, limit: number, offset: number) =>
      withRules(await database.rows(searched(projectId, search).orderBy('id').limit(limit).offset(offset))),
    count: (projectId: number, search: string | null | undefined): Promise<number> => database.count(searched(projectId, search)),
    async find(projectId: number, name: string): Promise<ProtectedBranch | null> {
      return (await withRules(await database.rows(branches().where({ projectId, name }))))[0] ?? null;
    },
    /** Creates the protected branch; null when the project already has one of that name. */
    async create(projectId: number, input: NewProtectedBranch): Promise<ProtectedBranch | null> {
      const write = database.transaction(async (tx) => {
        const { name, allowForcePush, codeOwnerApprovalRequired } = input;
        const now = new Date();
        const branchId = await database.insert(
          ProtectedBranchEntity,
          { projectId, name, allowForcePush, codeOwnerApprovalRequired, createdAt: now, updatedAt: now },
          { tx },
        );
        await addLevels(
          tx,
          branchId,
          PROTECTION_ACTIONS.flatMap((action) => input.levels[action].map((accessLevel) => ({ action, accessLevel }))),
        );
        return branchId;
      });
      const id = await unlessTaken(write, () => null);
      return id === null ? null : reload(id);
    },
    async update(branch: ProtectedBranch, change: ProtectedBranchChange): Promise<ProtectedBranch> {
      await database.transaction(async (tx) => {
        const flags = patchFrom<ProtectedBranchRow, ProtectedBranchChange>(change, {
          allowForcePush: 'allowForcePush',
          codeOwnerApprovalRequired: 'codeOwnerApprovalRequired',
        });
        await database.update(ProtectedBranchEntity, { id: branch.id }, { ...flags, updatedAt: new Date() }, { tx });
        if (change.remove?.length)
          await database.delete(ProtectedBranchAccessLevelEntity, { protectedBranchId: branch.id, id: { $in: change.remove } }, { tx });
        for (const { id, accessLevel } of change.change ?? []) {
          await database.update(ProtectedBranchAccessLevelEntity, { protectedBranchId: branch.id, id }, { accessLevel }, { tx });
        }
        await addLevels(tx, branch.id, change.add ?? []);
      });
      return reload(branch.id);
    },
    async remove(id: number): Promise<void> {
      await database.transaction(async (tx) => {
        await database.delete(ProtectedBranchAccessLevelEntity, { protectedBranchId: id }, { tx });
        await database.delete(ProtectedBranchEntity, { id }, { tx });
      });
    },
    async removeProject(projectId: number): Promise<void> {
      const ids = (await ofProject.all({ projectId })).map((row) => row.id);
      if (ids.length === 0) return;
      await database.transaction(async (tx) => {
        await database.delete(ProtectedBranchAccessLevelEntity, { protectedBranchId: { $in: ids } }, { tx });
        await database.delete(ProtectedBranchEntity, { id: { $in: ids } }, { tx });
      });
    },
  };
}

export type ProtectedBranchStore = ReturnType<typeof createProtectedBranchStore>;
