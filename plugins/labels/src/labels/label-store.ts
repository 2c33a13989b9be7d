/** Labels, their priorities and subscriptions in the database, by property. */
import type { Database } from '@forgekit/kernel';
import { mergeLinks, unlessTaken, type Query, type Value } from '@forgekit/kernel/orm';
import { LabelEntity, type LabelOwnerType, type LabelRow } from '../entities/label.js';
import { LabelPriorityEntity } from '../entities/label-priority.js';
import { LabelSubscriptionEntity } from '../entities/label-subscription.js';

/** The owners whose labels a list or lookup sees. */
export interface LabelScope {
  projectIds: readonly number[];
  groupIds: readonly number[];
}

export interface LabelFilter {
  search?: string | null;
  archived?: boolean | null;
}

/** Who looks at a list: a user, within a project on project routes. */
export interface Viewer {
  userId: number;
  projectId?: number;
}

export type ListedLabel = LabelRow & { subscribed: number };

export type LabelFields = Pick<LabelRow, 'title' | 'color' | 'description' | 'archived'>;

export function createLabelStore(database: Database) {
  type LabelQuery = Query<Record<'l', typeof LabelEntity>, 'l'>;

  /**
   * The labels of these projects and groups; none for no owners. An empty list leaves its
   * branch out (a prepared read is built once per number of owners, so it may).
   */
  const ofOwners = (query: LabelQuery, projectIds: readonly Value[], groupIds: readonly Value[]) =>
    query.where((owners) => {
      if (projectIds.length > 0) owners.orWhere((projects) => projects.where('ownerType', 'project').whereIn('ownerId', projectIds));
      if (groupIds.length > 0) owners.orWhere((groups) => groups.where('ownerType', 'group').whereIn('ownerId', groupIds));
      if (projectIds.length === 0 && groupIds.length === 0) owners.whereNone();
    });
  const inScope = (query: LabelQuery, scope: LabelScope) => ofOwners(query, scope.projectIds, scope.groupIds);
  const labels = () => database.from(LabelEntity, 'l');

  function filtered(scope: LabelScope, filter: LabelFilter) {
    const query = inScope(labels(), scope);
    if (filter.search) query.whereContains(['title', 'description'], filter.search);
    if (typeof filter.archived === 'boolean') query.where('archived', filter.archived);
    return query;
  }

  /** The page's order and window, and the viewer's subscription to each label (everywhere, or in their project) as `subscribed` (0 or 1). */
  const pageOf = (query: LabelQuery, values: { user: Value; project: Value; limit: number; offset: number }) =>
    query
      .selectExists('subscribed', LabelSubscriptionEntity, 's', (s) =>
        s.whereColumn('s.labelId', 'l.id').where('s.userId', values.user).whereIn('s.projectId', [0, values.project]),
      )
      .orderBy('title')
      .orderBy('id')
      .limit(values.limit)
      .offset(values.offset);

  /** Unfiltered pages, the usual list: compiled once per number of owners. */
  const unfilteredPage = database.prepareRows((p) =>
    pageOf(ofOwners(labels(), p.projectIds, p.groupIds), { user: p.user, project: p.project, limit: p.limit, offset: p.offset }),
  );
  const labelsById = database.prepareRows((p) => database.from(LabelEntity).whereIn('id', p.ids));
  // Project label lists read these on every request.
  const prioritiesIn = database.prepareRows((p) => database.from(LabelPriorityEntity).where('projectId', p.projectId).whereIn('labelId', p.labelIds));
  const subscriptionsOf = database.prepareRows((p) =>
    database.from(LabelSubscriptionEntity).where('userId', p.userId).whereIn('labelId', p.labelIds).whereIn('projectId', p.projectIds),
  );

  const isId = (text: string) => /^\d+$/.test(text) && Number(text) <= 2_147_483_647;

  return {
    /** A page of the scope's labels by title, each with whether the viewer is subscribed to it (everywhere, or in their project). */
    list(scope: LabelScope, filter: LabelFilter, limit: number, offset: number, viewer: Viewer): Promise<ListedLabel[]> {
      const values = { user: viewer.userId, project: viewer.projectId ?? 0, limit, offset };
      if (!filter.search && typeof filter.archived !== 'boolean') {
        return unfilteredPage.all({ ...values, projectIds: [...scope.projectIds], groupIds: [...scope.groupIds] }) as Promise<ListedLabel[]>;
      }
      return database.rows(pageOf(filtered(scope, filter), values)) as Promise<ListedLabel[]>;
    },

    count: (scope: LabelScope, filter: LabelFilter) => database.count(filtered(scope, filter)),

    /** The label `idOrTitle` names among the scope's: by id first, then by title (the nearest owner's first). */
    async find(scope: LabelScope, idOrTitle: string): Promise<LabelRow | undefined> {
      if (isId(idOrTitle)) {
        const byId = await database.row(inScope(labels(), scope).where('id', Number(idOrTitle)));
        if (byId) return byId;
      }
      const byTitle = await database.rows(inScope(labels(), scope).where('title', idOrTitle));
      return nearestFirst(byTitle, scope)[0];
    },

    async titled(scope: LabelScope, titles: readonly string[]): Promise<LabelRow[]> {
      if (titles.length === 0) return [];
      return nearestFirst(await database.rows(inScope(labels(), scope).whereIn('title', [...new Set(titles)])), scope);
    },

    byIds: (ids: readonly number[]): Promise<LabelRow[]> => (ids.length === 0 ? Promise.resolve([]) : labelsById.all({ ids: [...new Set(ids)] })),

    /**
     * Inserts the label unless one of the scope's labels already has its title, as one atomic
     * step per title; undefined when a label stood in the way.
     */
    async insert(owner: { type: LabelOwnerType; id: number }, fields: LabelFields, conflictScope: LabelScope): Promise<LabelRow | undefined> {
      const now = new Date();
      const row: Omit<LabelRow, 'id'> = { ownerType: owner.type, ownerId: owner.id, ...fields, createdAt: now, updatedAt: now, lockVersion: 0 };
      const guard = {
        unlessExists: inScope(database.table(LabelEntity, 'l').select('id'), conflictScope).where('title', fields.title),
        lockKey: `labels:title:${fields.title}`,
      };
      const id = await unlessTaken(database.insertGuarded(LabelEntity, row, guard), () => null);
      return id === null ? undefined : { id, ...row };
    },

    /** The updated label, or null when another label of its owner has the new title. */
    async update(previous: LabelRow, fields: Partial<LabelFields>): Promise<LabelRow | null> {
      const changes = { ...fields, updatedAt: new Date() };
      const updated = await unlessTaken(database.update(LabelEntity, { id: previous.id }, changes), () => null);
      // The ORM raised the version by one in the same statement.
      return updated === null ? null : { ...previous, ...changes, lockVersion: previous.lockVersion + 1 };
    },

    /** The group's own label with this exact title, if any. */
    groupLabelTitled: (groupId: number, title: string): Promise<LabelRow | undefined> =>
      database.row(database.from(LabelEntity).where({ ownerType: 'group', ownerId: groupId, title })),

    /** Every project label with this exact title, whichever project owns it. */
    projectLabelsTitled: (title: string): Promise<LabelRow[]> => database.rows(database.from(LabelEntity).where({ ownerType: 'project', title })),

    /**
     * One transaction: the `from` labels go, their priorities and subscriptions move to
     * `survivor` (one per project, one per user), and `survivor` takes `fields` as a label of the group.
     */
    async merge(survivor: LabelRow, groupId: number, fields: LabelFields, from: readonly number[]): Promise<LabelRow> {
      const changes = { ownerType: 'group' as const, ownerId: groupId, ...fields, updatedAt: new Date() };
      await database.transaction(async (tx) => {
        if (from.length > 0) {
          const ids = [survivor.id, ...from];
          const toSurvivor = (row: { labelId: number }) => row.labelId === survivor.id;
          const priorities = await database.rows(database.from(LabelPriorityEntity).whereIn('labelId', ids).orderBy('id'), { tx });
          const { moved: movedPriorities } = mergeLinks(priorities, toSurvivor, (row) => row.projectId);
          if (movedPriorities.length > 0) await database.update(LabelPriorityEntity, { id: { $in: movedPriorities } }, { labelId: survivor.id }, { tx });
          // The newest subscription of each user not yet subscribed to the survivor moves to it.
          const subscriptions = await database.rows(database.from(LabelSubscriptionEntity).whereIn('labelId', ids).orderBy('id', 'desc'), { tx });
          const { moved: movedSubscriptions } = mergeLinks(subscriptions, toSurvivor, (row) => row.userId);
          if (movedSubscriptions.length > 0) {
            await database.update(LabelSubscriptionEntity, { id: { $in: movedSubscriptions } }, { labelId: survivor.id }, { tx });
          }
          await database.delete(LabelPriorityEntity, { labelId: { $in: [...from] } }, { tx });
          await database.delete(LabelSubscriptionEntity, { labelId: { $in: [...from] } }, { tx });
          await database.delete(LabelEntity, { id: { $in: [...from] } }, { tx });
        }
        await database.update(LabelEntity, { id: survivor.id }, changes, { tx });
      });
      return { ...survivor, ...changes };
    },

    titleTaken: async (label: LabelRow, title: string) =>
      (await database.count(database.from(LabelEntity).where({ ownerType: label.ownerType, ownerId: label.ownerId, title }).whereNot('id', label.id))) > 0,

    remove: (id: number) =>
      database.transaction(async (tx) => {
        await database.delete(LabelPriorityEntity, { labelId: id }, { tx });
        await database.delete(LabelSubscriptionEntity, { labelId: id }, { tx });
        await database.delete(LabelEntity, { id }, { tx });
      }),

    /** Every label of a project or group, with what hangs off them; for a project also its priorities and subscriptions of others' labels. */
    async removeOwner(type: LabelOwnerType, ownerId: number): Promise<LabelRow[]> {
      const owned = await database.rows(database.from(LabelEntity).where({ ownerType: type, ownerId }));
      const ids = owned.map((label) => label.id);
      await database.transaction(async (tx) => {
        if (ids.length > 0) {
          await database.delete(LabelPriorityEntity, { labelId: { $in: ids } }, { tx });
          await database.delete(LabelSubscriptionEntity, { labelId: { $in: ids } }, { tx });
          await database.delete(LabelEntity, { id: { $in: ids } }, { tx });
        }
        if (type === 'project') {
          await database.delete(LabelPriorityEntity, { projectId: ownerId }, { tx });
          await database.delete(LabelSubscriptionEntity, { projectId: ownerId }, { tx });
        }
      });
      return owned;
    },

    removeSubscriber: (userId: number) => database.delete(LabelSubscriptionEntity, { userId }),

    async priorities(projectId: number, labelIds: readonly number[]): Promise<Map<number, number>> {
      if (labelIds.length === 0) return new Map();
      const rows = await prioritiesIn.all({ projectId, labelIds: [...labelIds] });
      return new Map(rows.map((row) => [row.labelId, row.priority]));
    },

    setPriority: (projectId: number, labelId: number, priority: number) => database.upsert(LabelPriorityEntity, { projectId, labelId, priority }),

    unsetPriority: (projectId: number, labelId: number) => database.delete(LabelPriorityEntity, { projectId, labelId }),

    /** Which of the labels the user is subscribed to, everywhere or (with `projectId`) within that project. */
    async subscribed(userId: number, labelIds: readonly number[], projectId = 0): Promise<Set<number>> {
      if (labelIds.length === 0) return new Set();
      const rows = await subscriptionsOf.all({ userId, labelIds: [...labelIds], projectIds: projectId === 0 ? [0] : [0, projectId] });
      return new Set(rows.map((row) => row.labelId));
    },

    /** False when the subscription already existed. */
    subscribe: (userId: number, labelId: number, projectId: number): Promise<boolean> =>
      unlessTaken(
        database.insert(LabelSubscriptionEntity, { userId, labelId, projectId, createdAt: new Date() }).then(() => true),
        () => false,
      ),

    /** Removes the user's subscriptions to the label that apply here; false when there were none. */
    unsubscribe: async (userId: number, labelId: number, projectId: number) =>
      (await database.delete(LabelSubscriptionEntity, { userId, labelId, projectId: { $in: projectId === 0 ? [0] : [0, projectId] } })) > 0,
  };
}

/** Project labels first, then group labels from the nearest group up. */
function nearestFirst(labels: LabelRow[], scope: LabelScope): LabelRow[] {
  const rank = (label: LabelRow) => (label.ownerType === 'project' ? -1 : scope.groupIds.length - scope.groupIds.indexOf(label.ownerId));
  return [...labels].sort((a, b) => rank(a) - rank(b));
}

export type LabelStore = ReturnType<typeof createLabelStore>;
