/** Groups: nested namespaces with path rules, visibility limits and an owner on create. */
import { apiError, validationFailed, type Database } from '@forgekit/kernel';
import type { EntityManager } from '@forgekit/kernel/orm';
import { Member } from '../entities/member.js';
import { Namespace, type NamespaceRow } from '../entities/namespace.js';
import { Project } from '../entities/project.js';
import { AccessLevel, Visibility } from '../shared/levels.js';
import { addLengthErrors, GROUP_LENGTHS } from '../shared/length-rules.js';
import { nameError, pathError, RESERVED_TOP_LEVEL } from '../shared/path-rules.js';
import { GROUP_SETTING_DEFAULTS, readGroupSettings, type GroupSettings } from './group-settings.js';

export interface GroupInput {
  name?: string;
  path?: string;
  description?: string;
  visibilityLevel?: number;
  parentId?: number | null;
  settings?: Partial<GroupSettings>;
}

/** Ruby's `Hash#inspect`, which GitLab puts in its group error text. */
function rubyInspect(errors: Record<string, string[]>) {
  return `{${Object.entries(errors)
    .map(([key, messages]) => `:${key}=>[${messages.map((m) => JSON.stringify(m)).join(', ')}]`)
    .join(', ')}}`;
}

export function createGroupService(database: Database) {
  const findById = (id: number, em?: EntityManager): Promise<NamespaceRow | undefined> =>
    database.legacy.row(Namespace, database.legacy.from(Namespace).where({ id, kind: 'group' }), { em });
  const exists = async (query: ReturnType<Database['legacy']['table']>) => (await database.legacy.count(query.limit(1))) > 0;

  /** A failed create reads `Failed to save group {...}`; a failed update is a plain validation error. */
  async function validate(input: GroupInput, parent: NamespaceRow | null, exceptId: number | null) {
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
        const sibling = database.legacy.table(Namespace).whereRaw('lower(path) = ?', [input.path.toLowerCase()]);
        if (parent) sibling.where('parent_id', parent.id);
        else sibling.whereNull('parent_id');
        if (exceptId) sibling.whereNot('id', exceptId);
        if (await exists(sibling)) errors.path = ['has already been taken'];
      }
    }
    if (parent && input.visibilityLevel !== undefined && input.visibilityLevel > parent.visibility_level) {
      errors.visibility_level = [
        `${visibilityText(input.visibilityLevel)} is not allowed since the parent group has a ${visibilityText(parent.visibility_level)} visibility.`,
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
    const project = await exists(database.legacy.table(Project).where('namespace_id', groupId).where('visibility_level', '>', level));
    if (project) problems.push(`${text} is not allowed since this group contains projects with higher visibility.`);
    const subgroup = await exists(database.legacy.table(Namespace).where('parent_id', groupId).where('visibility_level', '>', level));
    if (subgroup) problems.push(`${text} is not allowed since there are sub-groups with higher visibility.`);
    return problems;
  }

  const visibilityText = (level: number) => (level >= Visibility.public ? 'public' : level >= Visibility.internal ? 'internal' : 'private');

  /** Rewrites full_path, full_name and traversal_path of a group and everything below it. */
  async function recomputeSubtree(em: EntityManager, groupId: number) {
    const group = (await findById(groupId, em))!;
    const parent = group.parent_id ? await findById(group.parent_id, em) : null;
    const fullPath = parent ? `${parent.full_path}/${group.path}` : group.path;
    const fullName = parent ? `${parent.full_name} / ${group.name}` : group.name;
    const traversal = `${parent ? parent.traversal_path : '/'}${group.id}/`;
    await em.nativeUpdate(Namespace, { id: groupId }, { full_path: fullPath, full_name: fullName, traversal_path: traversal });
    const children = await database.legacy.rows(Namespace, database.legacy.table(Namespace).where('parent_id', groupId).select('id'), { em });
    for (const child of children) await recomputeSubtree(em, child.id);
  }

  return {
    findById,
    async create(input: GroupInput & { name: string; path: string }, creatorId: number): Promise<NamespaceRow> {
      const parent = input.parentId ? ((await findById(input.parentId)) ?? null) : null;
      await validate(input, parent, null);
      const now = new Date();
      return database.legacy.transaction(async (em) => {
        const settings = { ...GROUP_SETTING_DEFAULTS, ...(input.settings ?? {}) };
        const id = await em.insert(Namespace, {
          name: input.name,
          path: input.path,
          kind: 'group',
          parent_id: parent?.id ?? null,
          full_path: parent ? `${parent.full_path}/${input.path}` : input.path,
          full_name: parent ? `${parent.full_name} / ${input.name}` : input.name,
          traversal_path: '/',
          visibility_level: input.visibilityLevel ?? Visibility.private,
          description: input.description ?? '',
          settings: JSON.stringify(settings),
          created_at: now,
          updated_at: now,
        });
        await em.nativeUpdate(Namespace, { id }, { traversal_path: `${parent ? parent.traversal_path : '/'}${id}/` });
        await em.insert(Member, {
          source_type: 'Namespace',
          source_id: id,
          user_id: creatorId,
          access_level: AccessLevel.OWNER,
          created_by_id: creatorId,
          created_at: now,
          updated_at: now,
        });
        return (await findById(id, em))!;
      });
    },
    async update(group: NamespaceRow, input: GroupInput): Promise<NamespaceRow> {
      const parentId = input.parentId !== undefined ? input.parentId : group.parent_id;
      const parent = parentId ? ((await findById(parentId)) ?? null) : null;
      await validate({ ...input, path: input.path !== undefined && input.path !== group.path ? input.path : undefined }, parent, group.id);
      return database.legacy.transaction(async (em) => {
        const changes: Partial<NamespaceRow> = { updated_at: new Date() };
        if (input.name !== undefined) changes.name = input.name;
        if (input.path !== undefined) changes.path = input.path;
        if (input.description !== undefined) changes.description = input.description;
        if (input.visibilityLevel !== undefined) changes.visibility_level = input.visibilityLevel;
        if (input.parentId !== undefined) changes.parent_id = input.parentId;
        if (input.settings) changes.settings = JSON.stringify({ ...readGroupSettings(group.settings), ...input.settings });
        await em.nativeUpdate(Namespace, { id: group.id }, changes);
        if (input.name !== undefined || input.path !== undefined || input.parentId !== undefined) await recomputeSubtree(em, group.id);
        return (await findById(group.id, em))!;
      });
    },
    /** Removes the group, its subgroups and projects (rows cascade) and memberships in them. */
    async remove(group: NamespaceRow): Promise<{ projectIds: number[]; groupIds: number[] }> {
      return database.legacy.transaction(async (em) => {
        const groups = await database.legacy.rows(
          Namespace,
          database.legacy.table(Namespace).where('traversal_path', 'like', `${group.traversal_path}%`).select('id', 'traversal_path'),
          { em },
        );
        // Deepest first, so no row outlives its parent.
        groups.sort((a, b) => b.traversal_path.length - a.traversal_path.length);
        const groupIds = groups.map((g) => g.id);
        const projects = await database.legacy.rows(Project, database.legacy.table(Project).whereIn('namespace_id', groupIds).select('id'), { em });
        const projectIds = projects.map((p) => p.id);
        await em.nativeDelete(Member, { source_type: 'Namespace', source_id: { $in: groupIds } });
        if (projectIds.length > 0) await em.nativeDelete(Member, { source_type: 'Project', source_id: { $in: projectIds } });
        await em.nativeDelete(Project, { namespace_id: { $in: groupIds } });
        for (const id of groupIds) await em.nativeDelete(Namespace, { id });
        return { projectIds, groupIds };
      });
    },
  };
}

export type GroupService = ReturnType<typeof createGroupService>;
