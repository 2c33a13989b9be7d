/** Milestones in the database: reads through the entity, writes through the EntityManager. */
import type { Database } from '@forgekit/kernel';
import { containsText, idListReads, nextInternalId, recordId, type EntityManager, type Knex } from '@forgekit/kernel/orm';
import { MilestoneEntity, type MilestoneRow } from '../entities/milestone.js';
import type { Milestone } from '../contracts.js';
import { today } from './milestone-rules.js';

/** A row as the kernel decodes it: nullable columns arrive as null. */
export type StoredMilestone = MilestoneRow & Milestone;

/** Where a milestone lives. */
export interface Parent {
  kind: 'project' | 'group';
  id: number;
}

/** The list filters of GitLab's MilestonesFinder. */
export interface MilestoneQuery {
  projectIds: readonly number[];
  groupIds: readonly number[];
  state?: 'active' | 'closed' | 'all';
  iids?: readonly number[];
  title?: string;
  search?: string;
  updatedBefore?: Date;
  updatedAfter?: Date;
}

/** Where a title must not be taken (the milestone's own id aside), checked again inside the write. */
export interface TitleScope {
  title: string;
  projectIds: readonly number[];
  groupIds: readonly number[];
}

/** GitLab's fuzzy search needs three characters for a partial match; shorter words match whole. */
const MIN_PARTIAL = 3;

const column = (parent: Parent) => (parent.kind === 'project' ? 'project_id' : 'group_id');

export function createMilestoneStore(database: Database) {
  const knex = database.legacy.knex;

  function search(query: Knex.QueryBuilder, text: string) {
    const words = text.split(/\s+/).filter((word) => word.length >= MIN_PARTIAL);
    query.where((outer) => {
      for (const field of ['title', 'description']) {
        outer.orWhere((inner) => {
          if (words.length === 0) inner.whereRaw('lower(??) = lower(?)', [field, text]);
          else for (const word of words) inner.where(containsText(knex, field, word));
        });
      }
    });
  }

  function filtered(filter: MilestoneQuery) {
    const query = database.legacy.from(MilestoneEntity).where((scope) => {
      if (filter.projectIds.length > 0) scope.orWhereIn('project_id', [...filter.projectIds]);
      if (filter.groupIds.length > 0) scope.orWhereIn('group_id', [...filter.groupIds]);
      if (filter.projectIds.length === 0 && filter.groupIds.length === 0) scope.whereRaw('1 = 0');
    });
    if (filter.state && filter.state !== 'all') query.where('state', filter.state);
    if (filter.iids && filter.iids.length > 0) query.whereIn('iid', [...filter.iids]);
    if (filter.title !== undefined) query.where('title', filter.title);
    if (filter.search) search(query, filter.search);
    if (filter.updatedBefore) query.where('updated_at', '<', filter.updatedBefore);
    if (filter.updatedAfter) query.where('updated_at', '>', filter.updatedAfter);
    return query;
  }

  const milestonesById = idListReads((ids) =>
    database.legacy.prepareRows(MilestoneEntity, (p: Record<string, never>) => database.legacy.from(MilestoneEntity).whereIn('id', ids(p)).orderBy('id')),
  );
  const rows = async (query: Knex.QueryBuilder, em?: EntityManager) => (await database.legacy.rows(MilestoneEntity, query, { em })) as StoredMilestone[];

  /** Inside a write: an active milestone with the parent's next iid, taken under a lock so concurrent creates differ. */
  async function insertNext(em: EntityManager, parent: Parent, fields: Pick<StoredMilestone, 'title' | 'description' | 'startDate' | 'dueDate'>) {
    await database.legacy.lock(em, `milestones:${parent.kind}:${parent.id}`);
    const { max } = await database.legacy.totals<'max'>(database.legacy.table(MilestoneEntity).where(column(parent), parent.id).max({ max: 'iid' }), { em });
    const now = new Date();
    const row: Omit<StoredMilestone, 'id'> = {
      iid: nextInternalId(max, 'Milestone'),
      projectId: parent.kind === 'project' ? parent.id : null,
      groupId: parent.kind === 'group' ? parent.id : null,
      state: 'active',
      ...fields,
      createdAt: now,
      updatedAt: now,
    };
    const id = await em.insert(MilestoneEntity, row as StoredMilestone);
    return { id: Number(id), ...row };
  }

  /** Inside a write: takes the title's lock and tells whether another milestone in scope holds it. */
  async function titleHeld(em: EntityManager, scope: TitleScope, exceptId: number) {
    await database.legacy.lock(em, `milestones:title:${scope.title}`);
    const held = await rows(filtered({ projectIds: scope.projectIds, groupIds: scope.groupIds, title: scope.title }).whereNot('id', exceptId).limit(1), em);
    return held.length > 0;
  }

  return {
    /** GitLab's default order: due date first (none last), then newest. */
    list(filter: MilestoneQuery, limit: number, offset: number): Promise<StoredMilestone[]> {
      const query = filtered(filter)
        .orderByRaw('case when due_date is null then 1 else 0 end')
        .orderBy('due_date', 'asc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset);
      return rows(query);
    },

    count: (filter: MilestoneQuery) => database.legacy.count(filtered(filter)),

    /** The milestone of this project or group, by global id. */
    async findIn(parent: Parent, id: number): Promise<StoredMilestone | undefined> {
      if (recordId(id) === null) return undefined;
      return (await rows(database.legacy.from(MilestoneEntity).where({ id, [column(parent)]: parent.id })))[0];
    },

    async byIds(ids: readonly number[]): Promise<StoredMilestone[]> {
      const valid = ids.filter((id) => recordId(id) !== null);
      if (valid.length === 0) return [];
      return (await milestonesById.all([...new Set(valid)])) as StoredMilestone[];
    },

    /** Milestones with this exact title among these projects' and groups' (the uniqueness rule). */
    withTitle(title: string, projectIds: readonly number[], groupIds: readonly number[], exceptId = 0): Promise<StoredMilestone[]> {
      return rows(filtered({ projectIds, groupIds, title }).whereNot('id', exceptId).orderBy('id'));
    },

    /** Project milestones with this title, whichever project (a group checks its own projects among them). */
    projectMilestonesTitled(title: string, exceptId = 0): Promise<StoredMilestone[]> {
      const query = database.legacy.from(MilestoneEntity).whereNotNull('project_id').where('title', title).whereNot('id', exceptId);
      return rows(query);
    },

    /** Inserts with the next iid of the project or group; null when the title was taken meanwhile. */
    insert(
      parent: Parent,
      fields: Pick<StoredMilestone, 'title' | 'description' | 'startDate' | 'dueDate'>,
      scope: TitleScope,
    ): Promise<StoredMilestone | null> {
      return database.legacy.transaction(async (em) => ((await titleHeld(em, scope, 0)) ? null : insertNext(em, parent, fields)));
    },

    /**
     * GitLab's promotion in one transaction: the `from` milestones go and a group milestone
     * with the next group iid takes their title; null when the group already has the title.
     */
    promote(
      groupId: number,
      fields: Pick<StoredMilestone, 'title' | 'description' | 'startDate' | 'dueDate'>,
      from: readonly number[],
    ): Promise<StoredMilestone | null> {
      return database.legacy.transaction(async (em) => {
        if (await titleHeld(em, { title: fields.title, projectIds: [], groupIds: [groupId] }, 0)) return null;
        if (from.length > 0) await em.nativeDelete(MilestoneEntity, { id: { $in: [...from] } });
        return insertNext(em, { kind: 'group', id: groupId }, fields);
      });
    },

    /** Null when a new title was taken meanwhile. */
    update(previous: StoredMilestone, changes: Partial<Omit<StoredMilestone, 'id'>>, scope: TitleScope | null): Promise<StoredMilestone | null> {
      return database.legacy.transaction(async (em) => {
        if (scope && (await titleHeld(em, scope, previous.id))) return null;
        const next = { ...changes, updatedAt: new Date() };
        await em.nativeUpdate(MilestoneEntity, { id: previous.id }, next);
        return { ...previous, ...next };
      });
    },

    /** Groups that have milestones (the candidates of a descendants list). */
    async groupIdsWithMilestones(): Promise<number[]> {
      const found = await database.legacy.values(database.legacy.table(MilestoneEntity).distinct({ groupId: 'group_id' }).whereNotNull('group_id'), {
        groupId: 'number',
      });
      return found.map((row) => row.groupId);
    },

    remove: (id: number) => database.legacy.em().nativeDelete(MilestoneEntity, { id }),

    /** Removes a project's or group's milestones; answers their ids. */
    async removeAllOf(parent: Parent): Promise<number[]> {
      const found = await rows(database.legacy.from(MilestoneEntity).where(column(parent), parent.id));
      if (found.length > 0) await database.legacy.em().nativeDelete(MilestoneEntity, { id: { $in: found.map((row) => row.id) } });
      return found.map((row) => row.id);
    },

    /** Per project and group, the active milestone due soonest after today (GitLab's `Upcoming`). */
    async upcomingIds(projectIds: readonly number[], groupIds: readonly number[]): Promise<number[]> {
      const found = await rows(filtered({ projectIds, groupIds, state: 'active' }).where('due_date', '>', today()));
      const soonest = new Map<string, StoredMilestone>();
      for (const row of found) {
        const key = `${row.projectId}:${row.groupId}`;
        const held = soonest.get(key);
        if (!held || row.dueDate! < held.dueDate! || (row.dueDate === held.dueDate && row.id < held.id)) soonest.set(key, row);
      }
      return [...soonest.values()].map((row) => row.id).sort((a, b) => a - b);
    },

    /** Active milestones that have started (GitLab's `Started`). */
    async startedIds(projectIds: readonly number[], groupIds: readonly number[]): Promise<number[]> {
      const found = await rows(filtered({ projectIds, groupIds, state: 'active' }).where('start_date', '<=', today()).orderBy('id'));
      return found.map((row) => row.id);
    },

    async idsTitled(title: string, projectIds: readonly number[], groupIds: readonly number[]): Promise<number[]> {
      const found = await rows(filtered({ projectIds, groupIds, title }).orderBy('id'));
      return found.map((row) => row.id);
    },
  };
}

export type MilestoneStore = ReturnType<typeof createMilestoneStore>;
