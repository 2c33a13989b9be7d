/** Labels, their priorities and subscriptions in the database: reads through the entities, writes through the EntityManager. */
import type { Database } from '@forgekit/kernel';
import { containsText, idListReads, isUniqueViolation, mergeLinks, type Knex, type PreparedRead } from '@forgekit/kernel/orm';
import { LabelEntity, type LabelOwnerType, type LabelRow } from '../entities/label.js';
import { LabelPriority } from '../entities/label-priority.js';
import { LabelSubscription } from '../entities/label-subscription.js';

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
  const knex = database.legacy.knex;

  function inScope(query: Knex.QueryBuilder, scope: LabelScope) {
    return query.where((owners) => {
      if (scope.projectIds.length > 0) owners.orWhere((q) => q.where('owner_type', 'project').whereIn('owner_id', scope.projectIds));
      if (scope.groupIds.length > 0) owners.orWhere((q) => q.where('owner_type', 'group').whereIn('owner_id', scope.groupIds));
      if (scope.projectIds.length === 0 && scope.groupIds.length === 0) owners.whereRaw('1 = 0');
    });
  }

  function filtered(scope: LabelScope, filter: LabelFilter) {
    const query = inScope(database.legacy.from(LabelEntity), scope);
    if (filter.search) {
      const search = filter.search;
      query.where((q) => q.where(containsText(knex, 'title', search)).orWhere(containsText(knex, 'description', search)));
    }
    if (typeof filter.archived === 'boolean') query.where('archived', filter.archived);
    return query;
  }

  /** The page's order and window, and the viewer's subscription to each label as `subscribed` (0 or 1). */
  const pageOf = (query: Knex.QueryBuilder, values: { user: number; project: number; limit: number; offset: number }) =>
    query
      .select(
        knex.raw(
          'case when exists (select 1 from label_subscriptions s where s.label_id = labels.id and s.user_id = ? and s.project_id in (?, ?)) then 1 else 0 end as subscribed',
          [values.user, 0, values.project],
        ),
      )
      .orderBy('title')
      .orderBy('id')
      .limit(values.limit)
      .offset(values.offset);

  /** Unfiltered pages, the usual list, compiled once per number of owners. */
  const preparedPages = new Map<string, PreparedRead<ListedLabel, string>>();
  function preparedPage(projects: number, groups: number) {
    const key = `${projects}:${groups}`;
    let read = preparedPages.get(key);
    if (!read) {
      read = database.legacy.prepareRows(LabelEntity, (p: Record<string, never>) => {
        const scope = { projectIds: Array.from({ length: projects }, (_, i) => p[`p${i}`]!), groupIds: Array.from({ length: groups }, (_, i) => p[`g${i}`]!) };
        return pageOf(inScope(database.legacy.from(LabelEntity), scope), { user: p.user, project: p.project, limit: p.limit, offset: p.offset });
      }) as unknown as PreparedRead<ListedLabel, string>;
      preparedPages.set(key, read);
    }
    return read;
  }

  const labelsById = idListReads((ids) =>
    database.legacy.prepareRows(LabelEntity, (p: Record<string, never>) => database.legacy.from(LabelEntity).whereIn('id', ids(p))),
  );

  const isId = (text: string) => /^\d+$/.test(text) && Number(text) <= 2_147_483_647;

  return {
    /** A page of the scope's labels by title, each with whether the viewer is subscribed to it (everywhere, or in their project). */
    list(scope: LabelScope, filter: LabelFilter, limit: number, offset: number, viewer: Viewer): Promise<ListedLabel[]> {
      const values = { user: viewer.userId, project: viewer.projectId ?? 0, limit, offset };
      if (!filter.search && typeof filter.archived !== 'boolean') {
        const ids = Object.fromEntries([...scope.projectIds.map((id, i) => [`p${i}`, id]), ...scope.groupIds.map((id, i) => [`g${i}`, id])]);
        return preparedPage(scope.projectIds.length, scope.groupIds.length).all({ ...values, ...ids });
      }
      return database.legacy.rows(LabelEntity, pageOf(filtered(scope, filter), values)) as Promise<ListedLabel[]>;
    },

    count: (scope: LabelScope, filter: LabelFilter) => database.legacy.count(filtered(scope, filter)),

    /** The label `idOrTitle` names among the scope's: by id first, then by title (the nearest owner's first). */
    async find(scope: LabelScope, idOrTitle: string): Promise<LabelRow | undefined> {
      if (isId(idOrTitle)) {
        const byId = await database.legacy.row(LabelEntity, inScope(database.legacy.from(LabelEntity), scope).where('id', Number(idOrTitle)));
        if (byId) return byId;
      }
      const byTitle = await database.legacy.rows(LabelEntity, inScope(database.legacy.from(LabelEntity), scope).where('title', idOrTitle));
      return nearestFirst(byTitle, scope)[0];
    },

    async titled(scope: LabelScope, titles: readonly string[]): Promise<LabelRow[]> {
      if (titles.length === 0) return [];
      return nearestFirst(
        await database.legacy.rows(LabelEntity, inScope(database.legacy.from(LabelEntity), scope).whereIn('title', [...new Set(titles)])),
        scope,
      );
    },

    byIds: (ids: readonly number[]): Promise<LabelRow[]> => (ids.length === 0 ? Promise.resolve([]) : labelsById.all([...new Set(ids)])),

    /**
     * Inserts the label unless one of the scope's labels already has its title, as one atomic
     * step per title; undefined when a label stood in the way.
     */
    async insert(owner: { type: LabelOwnerType; id: number }, fields: LabelFields, conflictScope: LabelScope): Promise<LabelRow | undefined> {
      const now = new Date();
      const row: Omit<LabelRow, 'id'> = { ownerType: owner.type, ownerId: owner.id, ...fields, createdAt: now, updatedAt: now };
      try {
        const id = await database.legacy.insertGuarded(LabelEntity, row, {
          unlessExists: inScope(database.legacy.table(LabelEntity).select('id'), conflictScope).where('title', fields.title),
          lockKey: `labels:title:${fields.title}`,
        });
        return id === null ? undefined : { id, ...row };
      } catch (error) {
        if (isUniqueViolation(error)) return undefined;
        throw error;
      }
    },

    /** The updated label, or null when another label of its owner has the new title. */
    async update(previous: LabelRow, fields: Partial<LabelFields>): Promise<LabelRow | null> {
      const changes = { ...fields, updatedAt: new Date() };
      try {
        await database.legacy.em().nativeUpdate(LabelEntity, { id: previous.id }, changes);
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
      return { ...previous, ...changes };
    },

    /** The group's own label with this exact title, if any. */
    groupLabelTitled: (groupId: number, title: string): Promise<LabelRow | undefined> =>
      database.legacy.row(LabelEntity, database.legacy.from(LabelEntity).where({ owner_type: 'group', owner_id: groupId, title })),

    /** Every project label with this exact title, whichever project owns it. */
    projectLabelsTitled: (title: string): Promise<LabelRow[]> =>
      database.legacy.rows(LabelEntity, database.legacy.from(LabelEntity).where({ owner_type: 'project', title })),

    /**
     * One transaction: the `from` labels go, their priorities and subscriptions move to
     * `survivor` (one per project, one per user), and `survivor` takes `fields` as a label of the group.
     */
    async merge(survivor: LabelRow, groupId: number, fields: LabelFields, from: readonly number[]): Promise<LabelRow> {
      const changes = { ownerType: 'group' as const, ownerId: groupId, ...fields, updatedAt: new Date() };
      await database.legacy.transaction(async (em) => {
        if (from.length > 0) {
          const ids = [survivor.id, ...from];
          const toSurvivor = (row: { labelId: number }) => row.labelId === survivor.id;
          const priorities = await database.legacy.rows(LabelPriority, database.legacy.from(LabelPriority).whereIn('label_id', ids).orderBy('id'), { em });
          const { moved: movedPriorities } = mergeLinks(priorities, toSurvivor, (row) => row.projectId);
          if (movedPriorities.length > 0) await em.nativeUpdate(LabelPriority, { id: { $in: movedPriorities } }, { labelId: survivor.id });
          // The newest subscription of each user not yet subscribed to the survivor moves to it.
          const subscriptions = await database.legacy.rows(
            LabelSubscription,
            database.legacy.from(LabelSubscription).whereIn('label_id', ids).orderBy('id', 'desc'),
            { em },
          );
          const { moved: movedSubscriptions } = mergeLinks(subscriptions, toSurvivor, (row) => row.userId);
          if (movedSubscriptions.length > 0) await em.nativeUpdate(LabelSubscription, { id: { $in: movedSubscriptions } }, { labelId: survivor.id });
          await em.nativeDelete(LabelPriority, { labelId: { $in: [...from] } });
          await em.nativeDelete(LabelSubscription, { labelId: { $in: [...from] } });
          await em.nativeDelete(LabelEntity, { id: { $in: [...from] } });
        }
        await em.nativeUpdate(LabelEntity, { id: survivor.id }, changes);
      });
      return { ...survivor, ...changes };
    },

    titleTaken: async (label: LabelRow, title: string) =>
      (await database.legacy.count(
        database.legacy.from(LabelEntity).where({ owner_type: label.ownerType, owner_id: label.ownerId, title }).whereNot('id', label.id),
      )) > 0,

    remove: (id: number) =>
      database.legacy.transaction(async (em) => {
        await em.nativeDelete(LabelPriority, { labelId: id });
        await em.nativeDelete(LabelSubscription, { labelId: id });
        await em.nativeDelete(LabelEntity, { id });
      }),

    /** Every label of a project or group, with what hangs off them; for a project also its priorities and subscriptions of others' labels. */
    async removeOwner(type: LabelOwnerType, ownerId: number): Promise<LabelRow[]> {
      const labels = await database.legacy.rows(LabelEntity, database.legacy.from(LabelEntity).where({ owner_type: type, owner_id: ownerId }));
      const ids = labels.map((label) => label.id);
      await database.legacy.transaction(async (em) => {
        if (ids.length > 0) {
          await em.nativeDelete(LabelPriority, { labelId: { $in: ids } });
          await em.nativeDelete(LabelSubscription, { labelId: { $in: ids } });
          await em.nativeDelete(LabelEntity, { id: { $in: ids } });
        }
        if (type === 'project') {
          await em.nativeDelete(LabelPriority, { projectId: ownerId });
          await em.nativeDelete(LabelSubscription, { projectId: ownerId });
        }
      });
      return labels;
    },

    removeSubscriber: (userId: number) => database.legacy.em().nativeDelete(LabelSubscription, { userId }),

    async priorities(projectId: number, labelIds: readonly number[]): Promise<Map<number, number>> {
      if (labelIds.length === 0) return new Map();
      const rows = await database.legacy.rows(
        LabelPriority,
        database.legacy
          .from(LabelPriority)
          .where('project_id', projectId)
          .whereIn('label_id', [...labelIds]),
      );
      return new Map(rows.map((row) => [row.labelId, row.priority]));
    },

    setPriority: (projectId: number, labelId: number, priority: number) =>
      database.legacy.em().upsert(LabelPriority, { projectId, labelId, priority }, { onConflictFields: ['projectId', 'labelId'] }),

    unsetPriority: (projectId: number, labelId: number) => database.legacy.em().nativeDelete(LabelPriority, { projectId, labelId }),

    /** Which of the labels the user is subscribed to, everywhere or (with `projectId`) within that project. */
    async subscribed(userId: number, labelIds: readonly number[], projectId = 0): Promise<Set<number>> {
      if (labelIds.length === 0) return new Set();
      const query = database.legacy
        .from(LabelSubscription)
        .where('user_id', userId)
        .whereIn('label_id', [...labelIds])
        .whereIn('project_id', projectId === 0 ? [0] : [0, projectId]);
      return new Set((await database.legacy.rows(LabelSubscription, query)).map((row) => row.labelId));
    },

    /** False when the subscription already existed. */
    async subscribe(userId: number, labelId: number, projectId: number): Promise<boolean> {
      try {
        await database.legacy.em().insert(LabelSubscription, { userId, labelId, projectId, createdAt: new Date() });
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    /** Removes the user's subscriptions to the label that apply here; false when there were none. */
    unsubscribe: async (userId: number, labelId: number, projectId: number) =>
      (await database.legacy.em().nativeDelete(LabelSubscription, { userId, labelId, projectId: { $in: projectId === 0 ? [0] : [0, projectId] } })) > 0,
  };
}

/** Project labels first, then group labels from the nearest group up. */
function nearestFirst(labels: LabelRow[], scope: LabelScope): LabelRow[] {
  const rank = (label: LabelRow) => (label.ownerType === 'project' ? -1 : scope.groupIds.length - scope.groupIds.indexOf(label.ownerId));
  return [...labels].sort((a, b) => rank(a) - rank(b));
}

export type LabelStore = ReturnType<typeof createLabelStore>;
