/** Where labels are listed and created: a project (with its groups) or a group (with its ancestors). */
import type { GroupAccess, Project } from '@forgekit/plugin-core/contracts';
import type { LabelScope } from './label-store.js';

export type LabelParent =
  | {
      kind: 'project';
      id: number;
      /** The project's group and its ancestors, root first; empty for a personal project. */
      groupIds: readonly number[];
    }
  | {
      kind: 'group';
      id: number;
      /** The group's ancestors, root first. */
      ancestorIds: readonly number[];
      traversalPath: string;
    };

const idsOf = (traversalPath: string) => traversalPath.split('/').filter(Boolean).map(Number);

export function projectParent(project: Project): LabelParent {
  return { kind: 'project', id: project.id, groupIds: project.namespace.kind === 'group' ? idsOf(project.namespace.traversalPath) : [] };
}

export function groupParent(group: GroupAccess['group']): LabelParent {
  return { kind: 'group', id: group.id, ancestorIds: idsOf(group.traversalPath).filter((id) => id !== group.id), traversalPath: group.traversalPath };
}

/**
 * The labels a parent sees: a project its own and its groups' (only its direct group's without
 * ancestors), a group its own and, with ancestors, theirs.
 */
export function scopeOf(parent: LabelParent, includeAncestors = true): LabelScope {
  if (parent.kind === 'project') return { projectIds: [parent.id], groupIds: includeAncestors ? parent.groupIds : parent.groupIds.slice(-1) };
  return { projectIds: [], groupIds: includeAncestors ? [...parent.ancestorIds, parent.id] : [parent.id] };
}
