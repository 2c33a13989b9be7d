/**
 * Project and group labels with GitLab's rules: lookups by id then title, the 409 for a title
 * the parent already sees, model validations, priorities, subscriptions and counts.
 */
import { apiError, checkUnmodifiedSince, conflict, notFound, validationFailed, type EventBus, type PageRequest } from '@forgekit/kernel';
import { labelEvents, type Label, type LabelCounter, type LabelCountScope, type LabelCounts } from '../contracts.js';
import type { LabelRow } from '../entities/label.js';
import { scopeOf, type LabelParent } from './label-parent.js';
import { hasErrors, labelErrors, normalizeColor, sanitizeText, type LabelDraft } from './label-rules.js';
import type { LabelFields, LabelFilter, LabelScope, LabelStore, Viewer } from './label-store.js';

export interface LabelInput {
  name?: string;
  new_name?: string | null;
  color?: string | null;
  description?: string | null;
  archived?: boolean | null;
}

export type CountKind = 'issues' | 'merge_requests';

export const toLabel = (row: LabelRow): Label => ({
  id: row.id,
  title: row.title,
  color: row.color,
  description: row.description ?? null,
  projectId: row.ownerType === 'project' ? row.ownerId : null,
  groupId: row.ownerType === 'group' ? row.ownerId : null,
  archived: row.archived,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  lockVersion: row.lockVersion,
});

const ownerOf = (label: Label) => ({ labelId: label.id, projectId: label.projectId, groupId: label.groupId });
const strip = (text: string | null | undefined) => (typeof text === 'string' ? sanitizeText(text).trim() : text);

export function createLabelService(store: LabelStore, events: EventBus) {
  const counters = new Map<CountKind, LabelCounter>();

  function draftOf(input: LabelInput, base?: Label): LabelDraft {
    const title = input.new_name ?? input.name;
    return {
      title: typeof title === 'string' ? sanitizeText(title).trim() : (base?.title ?? ''),
      color: typeof input.color === 'string' ? normalizeColor(input.color) : (base?.color ?? ''),
      description: input.description !== undefined ? (strip(input.description) ?? null) : (base?.description ?? null),
    };
  }

  async function create(parent: LabelParent, input: LabelInput & { name: string; color: string }, userId: number | null): Promise<Label> {
    const conflictScope = scopeOf(parent);
    if ((await store.titled(conflictScope, [input.name])).length > 0) throw conflict('Label already exists');
    const draft = draftOf(input);
    const errors = labelErrors(draft);
    if (hasErrors(errors)) throw validationFailed(errors);
    const fields: LabelFields = { ...draft, archived: input.archived ?? false };
    const row = await store.insert({ type: parent.kind, id: parent.id }, fields, conflictScope);
    if (!row) throw conflict('Label already exists');
    const label = toLabel(row);
    await events.emit(labelEvents.created, { ...ownerOf(label), userId });
    return label;
  }

  async function update(label: Label, input: LabelInput, userId: number | null): Promise<Label> {
    const draft = draftOf({ ...input, name: undefined }, label);
    const changed: Partial<LabelFields> = {};
    if (input.new_name != null) changed.title = draft.title;
    if (input.color != null) changed.color = draft.color;
    if (input.description !== undefined) changed.description = draft.description;
    if (input.archived != null) changed.archived = input.archived;
    if (Object.keys(changed).length === 0) return label;

    const row = fromLabel(label);
    const errors = labelErrors(draft, changed.title !== undefined && changed.title !== label.title && (await store.titleTaken(row, draft.title)));
    if (hasErrors(errors)) throw validationFailed(errors);
    const updated = await store.update(row, changed);
    if (!updated) throw validationFailed(labelErrors(draft, true));
    const next = toLabel(updated);
    const changes = Object.fromEntries(
      Object.entries(changed)
        .filter(([key]) => label[key as keyof Label] !== next[key as keyof Label])
        .map(([key]) => [key, { previous: label[key as keyof Label], current: next[key as keyof Label] }]),
    );
    if (Object.keys(changes).length > 0) await events.emit(labelEvents.updated, { ...ownerOf(next), userId, changes });
    return next;
  }

  /**
   * GitLab's promotion: the label becomes the group's, and every label of that title in the
   * group (its own, its projects') is merged into one. An existing group label of the title is
   * the one kept, else the promoted label itself (so what carries it keeps it); the kept label
   * takes the promoted label's title, colour and description. `label.merged` tells the owners of
   * items carrying the merged labels to move them, before each merged label's `label.deleted`.
   */
  async function promote(label: Label, groupId: number, userId: number | null, groupOfProject: (projectId: number) => Promise<number | null>): Promise<Label> {
    if (label.projectId === null) throw apiError(400, 'Failed to promote project label to group label');
    const existing = await store.groupLabelTitled(groupId, label.title);
    const siblings: LabelRow[] = [];
    for (const row of await store.projectLabelsTitled(label.title)) {
      if (row.id !== label.id && (await groupOfProject(row.ownerId)) === groupId) siblings.push(row);
    }
    const survivor = existing ?? fromLabel(label);
    const merged = [...(existing ? [fromLabel(label)] : []), ...siblings];
    const fields: LabelFields = { title: label.title, color: label.color, description: label.description, archived: false };
    const promoted = toLabel(
      await store.merge(
        survivor,
        groupId,
        fields,
        merged.map((row) => row.id),
      ),
    );

    const before = toLabel(survivor);
    const changes: Record<string, { previous: unknown; current: unknown }> = {};
    if (!existing) Object.assign(changes, { project_id: { previous: label.projectId, current: null }, group_id: { previous: null, current: groupId } });
    for (const key of ['color', 'description', 'archived'] as const) {
      if (before[key] !== promoted[key]) changes[key] = { previous: before[key], current: promoted[key] };
    }
    if (Object.keys(changes).length > 0) await events.emit(labelEvents.updated, { ...ownerOf(promoted), userId, changes });
    if (merged.length > 0) await events.emit(labelEvents.merged, { from: merged.map((row) => row.id), to: promoted.id, groupId, userId });
    for (const row of merged) await events.emit(labelEvents.deleted, { ...ownerOf(toLabel(row)), userId, title: row.title });
    return promoted;
  }

  async function countsOf(ids: readonly number[], scope: LabelCountScope): Promise<Map<number, { issues: LabelCounts; mergeRequests: LabelCounts }>> {
    const [issues, mergeRequests] = await Promise.all(
      (['issues', 'merge_requests'] as const).map((kind) => counters.get(kind)?.(ids, scope) ?? Promise.resolve(new Map<number, LabelCounts>())),
    );
    const zero = { opened: 0, closed: 0 };
    return new Map(ids.map((id) => [id, { issues: issues?.get(id) ?? zero, mergeRequests: mergeRequests?.get(id) ?? zero }]));
  }

  return {
    /** A page of the scope's labels by title and the total; one row past the page tells whether counting is needed. */
    async page(scope: LabelScope, filter: LabelFilter, request: PageRequest, viewer: Viewer) {
      const fetched = await store.list(scope, filter, request.perPage + 1, request.offset, viewer);
      const rows = fetched.slice(0, request.perPage);
      const known = fetched.length <= request.perPage && (fetched.length > 0 || request.page === 1);
      return {
        labels: rows.map(toLabel),
        subscribed: new Set(rows.filter((row) => Number(row.subscribed) > 0).map((row) => row.id)),
        total: known ? request.offset + rows.length : await store.count(scope, filter),
      };
    },

    /** The label `idOrTitle` names among the scope's, else `404 Label Not Found`. */
    async find(scope: LabelScope, idOrTitle: string): Promise<Label> {
      const row = await store.find(scope, idOrTitle);
      if (!row) throw notFound('Label');
      return toLabel(row);
    },

    create,
    update,
    promote,

    async remove(label: Label, userId: number | null, unmodifiedSince?: string) {
      checkUnmodifiedSince(unmodifiedSince, label.updatedAt);
      await store.remove(label.id);
      await events.emit(labelEvents.deleted, { ...ownerOf(label), userId, title: label.title });
    },

    async removeOwner(type: 'project' | 'group', id: number) {
      for (const row of await store.removeOwner(type, id)) {
        await events.emit(labelEvents.deleted, { ...ownerOf(toLabel(row)), userId: null, title: row.title });
      }
    },
    removeSubscriber: (userId: number) => store.removeSubscriber(userId),

    priorities: (projectId: number, labels: readonly Label[]) =>
      store.priorities(
        projectId,
        labels.map((label) => label.id),
      ),
    prioritiesOf: (projectId: number, labelIds: readonly number[]) => store.priorities(projectId, labelIds),
    async setPriority(projectId: number, label: Label, priority: number | null) {
      if (priority === null) await store.unsetPriority(projectId, label.id);
      else await store.setPriority(projectId, label.id, priority);
    },

    subscribed: (userId: number, labels: readonly Label[], projectId = 0) =>
      store.subscribed(
        userId,
        labels.map((label) => label.id),
        projectId,
      ),
    /** False when the user was already subscribed here. */
    async subscribe(userId: number, label: Label, projectId = 0) {
      if ((await store.subscribed(userId, [label.id], projectId)).size > 0) return false;
      return store.subscribe(userId, label.id, projectId);
    },
    /** False when the user was not subscribed here. */
    unsubscribe: (userId: number, label: Label, projectId = 0) => store.unsubscribe(userId, label.id, projectId),

    countsOf,
    registerCounts(kind: CountKind, counter: LabelCounter) {
      counters.set(kind, counter);
    },

    titled: async (scope: LabelScope, titles: readonly string[]) => (await store.titled(scope, titles)).map(toLabel),
    byIds: async (ids: readonly number[]) => (await store.byIds(ids)).map(toLabel),
  };
}

function fromLabel(label: Label): LabelRow {
  const owner =
    label.projectId !== null ? { ownerType: 'project' as const, ownerId: label.projectId } : { ownerType: 'group' as const, ownerId: label.groupId ?? 0 };
  return {
    id: label.id,
    ...owner,
    title: label.title,
    color: label.color,
    description: label.description,
    archived: label.archived,
    createdAt: label.createdAt,
    updatedAt: label.updatedAt,
    lockVersion: label.lockVersion ?? 0,
  };
}

export type LabelService = ReturnType<typeof createLabelService>;
