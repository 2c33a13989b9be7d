/** Groups: nested namespaces with path rules, visibility limits and an owner on create. */
import { apiError, patchFrom, validationFailed, type Database, type Transaction } from '@forgekit/kernel';
import type { Query } from '@forgekit/kernel/orm';
import type { GroupInput, GroupService, Namespace } from '../contracts.js';
import { MemberEntity } from '../entities/member.js';
import { NamespaceEntity, type NamespaceRow } from '../entities/namespace.js';
import { ProjectEntity } from '../entities/project.js';
import { AccessLevel, Visibility } from '../shared/levels.js';
import { addLengthErrors, GROUP_LENGTHS } from '../shared/length-rules.js';
import { nameError, pathError, RESERVED_TOP_LEVEL } from '../shared/path-rules.js';
import { GROUP_SETTING_DEFAULTS, readGroupSettings } from './group-settings.js';

/** Ruby's `Hash#inspect`, which GitLab puts in its group error text. */
function rubyInspect(errors: Record<string, string[]>) {
  return `{${Object.entries(errors)
    .map(([key, messages]) => `:${key}=>[${messages.map((m) => JSON.stringify(m)).join(', ')}]`)
    .join(', ')}}`;
}

export function createGroupService(database: Database): GroupService {
  const findById = async (id: number, tx?: Transaction) =>
    (await database.row(database.from(NamespaceEntity).where({ id, kind: 'group' }), { tx })) as Namespace | undefined;
  const exists = async (query: Query<any, any>) => (await database.count(query.limit(1))) > 0;

  /** A failed create reads `Failed to save group {...}`; a failed update is a plain validation error. */
  async function validate(input: GroupInput, parent: Namespace | null, exceptId: number | null) {
    const errors: Record<string, string[]> = {};
    if (input.name !== undefined) {
      if (input.name.trim() === '') errors.name = ["can't be blank"];
      else if (nameError(input.name)) errors.name = [nameError(input.name)!];
    }
    if (input.path !== undefined) {
      const problem = pathError(input.path);
      if (problem) errors.path = [problem];
      else {
        if (!parent && RESERVED_TOP_LEVEL.has(input.path.toLowerCase())) errors.path = [`${input.path} is a reserved name`];
        const sibling = database.table(NamespaceEntity).whereIgnoringCase('path', input.path);
        if (parent) sibling.where('parentId', parent.id);
        else sibling.whereNull('parentId');
        if (exceptId) sibling.whereNot('id', exceptId);
        if (await exists(sibling)) errors.path = ['has already been taken'];
      }
    }
    if (parent && input.visibilityLevel !== undefined && input.visibilityLevel > parent.visibilityLevel) {
      errors.visibility_level = [
        `${visibilityText(input.visibilityLevel)} is not allowed since the parent group has a ${visibilityText(parent.visibilityLevel)} visibility.`,
      ];
    }
    if (exceptId !== null && input.visibilityLevel !== undefined) {
      const problems = await contentsMoreVisibleThan(exceptId, input.visibilityLevel);
      if (problems.length > 0) errors.visibility_level = [...(errors.visibility_level ?? []), ...problems];
    }
    addLengthErrors(errors, GROUP_LENGTHS, { ...input, default_branch: input.settings?.default_branch });
    if (Object.keys(errors).length === 0) return;
    throw exceptId === null ? apiError(400, `Failed to save group ${rubyInspect(errors)}`) : validationFailed(errors);
  }

  /** A group may not become less visible than the projects and subgroups inside it. */
  async function contentsMoreVisibleThan(groupId: number, level: number): Promise<string[]> {
    const text = visibilityText(level);
    const problems: string[] = [];
    const project = await exists(database.table(ProjectEntity).where('namespaceId', groupId).where('visibilityLevel', '>', level));
    if (project) problems.push(`${text} is not allowed since this group contains projects with higher visibility.`);
    const subgroup = await exists(database.table(NamespaceEntity).where('parentId', groupId).where('visibilityLevel', '>', level));
    if (subgroup) problems.push(`${text} is not allowed since there are sub-groups with higher visibility.`);
    return problems;
  }

  const visibilityText = (level: number) => (level >= Visibility.public ? 'public' : level >= Visibility.internal ? 'internal' : 'private');

  /** Rewrites fullPath, fullName and traversalPath of a group and everything below it. */
  async function recomputeSubtree(tx: Transaction, groupId: number) {
    const group = (await findById(groupId, tx))!;
    const parent = group.parentId ? await findById(group.parentId, tx) : null;
    const fullPath = parent ? `${parent.fullPath}/${group.path}` : group.path;
    const fullName = parent ? `${parent.fullName} / ${group.name}` : group.name;
    const traversalPath = `${parent ? parent.traversalPath : '/'}${group.id}/`;
    await database.update(NamespaceEntity, { id: groupId }, { fullPath, fullName, traversalPath }, { tx });
    const children = await database.rows(database.table(NamespaceEntity).where('parentId', groupId).select('id'), { tx });
    for (const child of children) await recomputeSubtree(tx, child.id);
  }

  return {
    findById,
    async create(input, creatorId) {
      const parent = input.parentId ? ((await findById(input.parentId)) ?? null) : null;
      await validate(input, parent, null);
      const now = new Date();
      return database.transaction(async (tx) => {
        const settings = { ...GROUP_SETTING_DEFAULTS, ...(input.settings ?? {}) };
        const id = await database.insert(
          NamespaceEntity,
          {
            name: input.name,
            path: input.path,
            kind: 'group',
            parentId: parent?.id ?? null,
            fullPath: parent ? `${parent.fullPath}/${input.path}` : input.path,
            fullName: parent ? `${parent.fullName} / ${input.name}` : input.name,
            traversalPath: '/',
            visibilityLevel: input.visibilityLevel ?? Visibility.private,
            description: input.description ?? '',
            settings: JSON.stringify(settings),
            createdAt: now,
            updatedAt: now,
          },
          { tx },
        );
        await database.update(NamespaceEntity, { id }, { traversalPath: `${parent ? parent.traversalPath : '/'}${id}/` }, { tx });
        await database.insert(
          MemberEntity,
          {
            sourceType: 'Namespace',
            sourceId: id,
            userId: creatorId,
            accessLevel: AccessLevel.OWNER,
            createdById: creatorId,
            createdAt: now,
            updatedAt: now,
          },
          { tx },
        );
        return (await findById(id, tx))!;
      });
    },
    async update(group, input) {
      const parentId = input.parentId !== undefined ? input.parentId : group.parentId;
      const parent = parentId ? ((await findById(parentId)) ?? null) : null;
      await validate({ ...input, path: input.path !== undefined && input.path !== group.path ? input.path : undefined }, parent, group.id);
      return database.transaction(async (tx) => {
        const changes: Partial<NamespaceRow> = {
          ...patchFrom<NamespaceRow, GroupInput>(input, {
            name: 'name',
            path: 'path',
            description: 'description',
            visibilityLevel: 'visibilityLevel',
            parentId: 'parentId',
            settings: { to: 'settings', as: (settings) => JSON.stringify({ ...readGroupSettings(group.settings), ...settings }) },
          }),
          updatedAt: new Date(),
        };
        await database.update(NamespaceEntity, { id: group.id }, changes, { tx });
        if (input.name !== undefined || input.path !== undefined || input.parentId !== undefined) await recomputeSubtree(tx, group.id);
        return (await findById(group.id, tx))!;
      });
    },
    async remove(group) {
      return database.transaction(async (tx) => {
        const below = database.table(NamespaceEntity).whereStartsWith('traversalPath', group.traversalPath).select('id', 'traversalPath');
        const groups = await database.rows(below, { tx });
        // Deepest first, so no row outlives its parent.
        groups.sort((a, b) => b.traversalPath.length - a.traversalPath.length);
        const groupIds = groups.map((g) => g.id);
        const projects = await database.rows(database.table(ProjectEntity).whereIn('namespaceId', groupIds).select('id'), { tx });
        const projectIds = projects.map((p) => p.id);
        await database.delete(MemberEntity, { sourceType: 'Namespace', sourceId: { $in: groupIds } }, { tx });
        if (projectIds.length > 0) await database.delete(MemberEntity, { sourceType: 'Project', sourceId: { $in: projectIds } }, { tx });
        await database.delete(ProjectEntity, { namespaceId: { $in: groupIds } }, { tx });
        for (const id of groupIds) await database.delete(NamespaceEntity, { id }, { tx });
        return { projectIds, groupIds };
      });
    },
  };
}
