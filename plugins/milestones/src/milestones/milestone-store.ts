/** Milestones in the database, by property. */
import type { Database, Transaction } from '@forgekit/kernel';
import { allocateInternalId, recordId, releaseInternalIds, type Query } from '@forgekit/kernel/orm';
import { MilestoneEntity, type MilestoneRow } from '../entities/milestone.js';
import type { Milestone } from '../contracts.js';
import { today } from './milestone-rules.js';

/** A row as the kernel decodes it: nullable columns arrive as null. */
export type StoredMilestone = MilestoneRow & Omit<Milestone, 'webUrl'>;

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

/** The property that names a milestone's project or group. */
const ownerOf = (parent: Parent) => (parent.kind === 'project' ? 'projectId' : 'groupId');

/** A read of milestones, by property. */
type MilestoneRead = Query<Record<'', typeof MilestoneEntity>, ''>;

/** GitLab's fuzzy search over the title and the description: every word of three characters or more, or the whole text, ignoring case. */
function search(query: MilestoneRead, text: string) {
  const words = text.split(/\s+/).filter((word) => word.length >= MIN_PARTIAL);
  query.where((outer) => {
    for (const field of ['title', 'description'] as const) {
      outer.orWhere((inner) => {
        if (words.length === 0) inner.whereIgnoringCase(field, text);
        else for (const word of words) inner.whereContains([field], word);
      });
    }
  });
}

export function createMilestoneStore(database: Database) {
  function filtered(filter: MilestoneQuery) {
    const query = database.from(MilestoneEntity).where((scope) => {
      if (filter.projectIds.length > 0) scope.orWhereIn('projectId', filter.projectIds);
      if (filter.groupIds.length > 0) scope.orWhereIn('groupId', filter.groupIds);
      if (filter.projectIds.length === 0 && filter.groupIds.length === 0) scope.whereNone();
    });
    if (filter.state && filter.state !== 'all') query.where('state', filter.state);
    if (filter.iids && filter.iids.length > 0) query.whereIn('iid', filter.iids);
    if (filter.title !== undefined) query.where('title', filter.title);
    if (filter.search) search(query, filter.search);
    if (filter.updatedBefore) query.where('updatedAt', '<', filter.updatedBefore);
    if (filter.updatedAfter) query.where('updatedAt', '>', filter.updatedAfter);
    return query;
  }

  const milestonesById = database.prepareRows((p) => database.from(MilestoneEntity).whereIn('id', p.ids).orderBy('id'));
  const rows = async (query: MilestoneRead, tx?: Transaction) => (await database.rows(query, { tx })) as StoredMilestone[];

  /** Inside a write: an active milestone with the parent's next iid, taken under a lock so concurrent creates differ. */
  async function insertNext(tx: Transaction, parent: Parent, fields: Pick<StoredMilestone, 'title' | 'description' | 'startDate' | 'dueDate'>) {
    await database.lock(tx, `milestones:${parent.kind}:${parent.id}`);
    const iid = await allocateInternalId(database, tx, {
      usage: `milestones:${parent.kind}`,
      scopeId: parent.id,
      what: 'Milestone',
      highest: database.table(MilestoneEntity).where(ownerOf(parent), parent.id).max({ last: 'iid' }),
    });
    const now = new Date();
    const row: Omit<StoredMilestone, 'id'> = {
      iid,
      projectId: parent.kind === 'project' ? parent.id : null,
      groupId: parent.kind === 'group' ? parent.id : null,
      state: 'active',
      ...fields,
      createdAt: now,
      updatedAt: now,
    };
    const id = await database.insert(MilestoneEntity, row, { tx });
    return { id, ...row };
  }

  /** Inside a write: takes the title's lock and tells whether another milestone in scope holds it. */
  async function titleHeld(tx: Transaction, scope: TitleScope, exceptId: number) {
    await database.lock(tx, `milestones:title:${scope.title}`);
    const held = await rows(filtered({ projectIds: scope.projectIds, groupIds: scope.groupIds, title: scope.title }).whereNot('id', exceptId).limit(1), tx);
    return held.length > 0;
  }

  return {
    /** GitLab's default order: due date first (none last), then newest. */
    list(filter: MilestoneQuery, limit: number, offset: number): Promise<StoredMilestone[]> {
      return rows(filtered(filter).orderBy('dueDate', 'asc', { nulls: 'last' }).orderBy('id', 'desc').limit(limit).offset(offset));
    },

    count: (filter: MilestoneQuery) => database.count(filtered(filter)),

    /** The milestone of this project or group, by global id. */
    async findIn(parent: Parent, id: number): Promise<StoredMilestone | undefined> {
      if (recordId(id) === null) return undefined;
      return (await rows(database.from(MilestoneEntity).where('id', id).where(ownerOf(parent), parent.id)))[0];
    },

    async byIds(ids: readonly number[]): Promise<StoredMilestone[]> {
      const valid = ids.filter((id) => recordId(id) !== null);
      if (valid.length === 0) return [];
      return (await milestonesById.all({ ids: [...new Set(valid)] })) as StoredMilestone[];
    },

    /** Milestones with this exact title among these projects' and groups' (the uniqueness rule). */
    withTitle(title: string, projectIds: readonly number[], groupIds: readonly number[], exceptId = 0): Promise<StoredMilestone[]> {
      return rows(filtered({ projectIds, groupIds, title }).whereNot('id', exceptId).orderBy('id'));
    },

    /** Project milestones with this title, whichever project (a group checks its own projects among them). */
    projectMilestonesTitled(title: string, exceptId = 0): Promise<StoredMilestone[]> {
      return rows(database.from(MilestoneEntity).whereNotNull('projectId').where('title', title).whereNot('id', exceptId));
    },

    /** Inserts with the next iid of the project or group; null when the title was taken meanwhile. */
    insert(
      parent: Parent,
      fields: Pick<StoredMilestone, 'title' | 'description' | 'startDate' | 'dueDate'>,
      scope: TitleScope,
    ): Promise<StoredMilestone | null> {
      return database.transaction(async (tx) => ((await titleHeld(tx, scope, 0)) ? null : insertNext(tx, parent, fields)));
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
      return database.transaction(async (tx) => {
        if (await titleHeld(tx, { title: fields.title, projectIds: [], groupIds: [groupId] }, 0)) return null;
        if (from.length > 0) await database.delete(MilestoneEntity, { id: { $in: [...from] } }, { tx });
        return insertNext(tx, { kind: 'group', id: groupId }, fields);
      });
    },

    /** Null when a new title was taken meanwhile. */
    update(previous: StoredMilestone, changes: Partial<Omit<StoredMilestone, 'id'>>, scope: TitleScope | null): Promise<StoredMilestone | null> {
      return database.transaction(async (tx) => {
        if (scope && (await titleHeld(tx, scope, previous.id))) return null;
        const next = { ...changes, updatedAt: new Date() };
        await database.update(MilestoneEntity, { id: previous.id }, next, { tx });
        return { ...previous, ...next };
      });
    },

    /** Groups that have milestones (the candidates of a descendants list). */
    async groupIdsWithMilestones(): Promise<number[]> {
      const found = await database.values(database.table(MilestoneEntity).select({ groupId: 'groupId' }).distinct().whereNotNull('groupId'), {
        groupId: 'number',
      });
      return found.map((row) => row.groupId);
    },

    remove: (id: number) => database.delete(MilestoneEntity, { id }),

    /** Removes a project's or group's milestones; answers their ids. */
    async removeAllOf(parent: Parent): Promise<number[]> {
      const found = await rows(database.from(MilestoneEntity).where(ownerOf(parent), parent.id));
      await releaseInternalIds(database, `milestones:${parent.kind}`, parent.id);
      if (found.length > 0) await database.delete(MilestoneEntity, { id: { $in: found.map((row) => row.id) } });
      return found.map((row) => row.id);
    },

    /** Per project and group, the active milestone due soonest after today (GitLab's `Upcoming`). */
    async upcomingIds(projectIds: readonly number[], groupIds: readonly number[]): Promise<number[]> {
      const found = await rows(filtered({ projectIds, groupIds, state: 'active' }).where('dueDate', '>', today()));
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
      const found = await rows(filtered({ projectIds, groupIds, state: 'active' }).where('startDate', '<=', today()).orderBy('id'));
      return found.map((row) => row.id);
    },

    async idsTitled(title: string, projectIds: readonly number[], groupIds: readonly number[]): Promise<number[]> {
      const found = await rows(filtered({ projectIds, groupIds, title }).orderBy('id'));
      return found.map((row) => row.id);
    },
  };
}

export type MilestoneStore = ReturnType<typeof createMilestoneStore>;
