/** Merge requests, their assignees, reviewers and labels in the database, read and written by property. */
import { keptUnderMark, PAGES_KEPT, TOTAL_COLUMN, type Database, type Transaction } from '@forgekit/kernel';
import { allocateInternalId, type FilterParams, filterParams, readsByShape, releaseInternalIds, unlessTaken, type PreparedRead } from '@forgekit/kernel/orm';
import { MergeRequestEntity, type MergeRequestRow } from '../entities/merge-request.js';
import { MergeRequestLabelEntity } from '../entities/merge-request-label.js';
import { MergeRequestUserEntity, type MergeRequestUserRole } from '../entities/merge-request-user.js';
import { MergeRequestVersionEntity, type MergeRequestVersionRow } from '../entities/merge-request-version.js';
import { applyMergeRequestFilter, type MergeRequestFilter } from './mr-filter.js';
import { createMergeRequestLabelCounts } from './mr-label-counts.js';
import type { ListOrder } from './mr-order.js';

/** The `internal_ids` counter of a project's merge requests. */
const IID_USAGE = 'merge_requests';

export type NewMergeRequest = Omit<MergeRequestRow, 'id' | 'iid' | 'lockVersion'>;

/** What a write does besides the merge request row, in the same transaction (system notes, milestone events). */
export type AlsoInTransaction = (tx: Transaction, mergeRequest: MergeRequestRow) => Promise<void>;

export interface Relations {
  assignees: Map<number, number[]>;
  reviewers: Map<number, number[]>;
  labels: Map<number, number[]>;
}

export interface RelationChanges {
  assigneeIds?: readonly number[];
  reviewerIds?: readonly number[];
  labelIds?: readonly number[];
}

/** A next iid that lost a race to another process is retried this often. */
const IID_ATTEMPTS = 5;

/** List statements kept, one per filter shape and order; past this many they are compiled afresh. */
const LIST_SHAPES = 100;

type ListRow = MergeRequestRow & { [TOTAL_COLUMN]?: unknown };

export function createMergeRequestStore(database: Database) {
  const byIid = database.prepareRows((p) => database.from(MergeRequestEntity).where({ projectId: p.projectId, iid: p.iid }).limit(1));
  const userLinks = database.prepareRows((p) => database.from(MergeRequestUserEntity).whereIn('mergeRequestId', p.ids).orderBy('id'));
  const labelLinks = database.prepareRows((p) => database.from(MergeRequestLabelEntity).whereIn('mergeRequestId', p.ids).orderBy('id'));
  const labelsCarried = database.prepareValues(
    (p) =>
      database
        .table(MergeRequestLabelEntity, 'link')
        .join(MergeRequestEntity, 'm', 'm.id', 'link.mergeRequestId')
        .distinct()
        .select({ labelId: 'link.labelId' })
        .whereIn('m.projectId', p.projectIds),
    { labelId: 'number' },
  );

  const everyLabelCarried = database.prepareValues(() => database.table(MergeRequestLabelEntity, 'link').distinct().select({ labelId: 'link.labelId' }), {
    labelId: 'number',
  });

  async function setUsers(tx: Transaction, mergeRequestId: number, role: MergeRequestUserRole, userIds: readonly number[]) {
    await database.delete(MergeRequestUserEntity, { mergeRequestId, role }, { tx });
    await database.insertMany(
      MergeRequestUserEntity,
      userIds.map((userId) => ({ mergeRequestId, role, userId })),
      { tx },
    );
  }

  async function setLabels(tx: Transaction, mergeRequestId: number, labelIds: readonly number[]) {
    await database.delete(MergeRequestLabelEntity, { mergeRequestId }, { tx });
    await database.insertMany(
      MergeRequestLabelEntity,
      labelIds.map((labelId) => ({ mergeRequestId, labelId })),
      { tx },
    );
  }

  async function setRelations(tx: Transaction, id: number, relations: RelationChanges) {
    if (relations.assigneeIds) await setUsers(tx, id, 'assignee', relations.assigneeIds);
    if (relations.reviewerIds) await setUsers(tx, id, 'reviewer', relations.reviewerIds);
    if (relations.labelIds) await setLabels(tx, id, relations.labelIds);
  }

  function insertOnce(row: NewMergeRequest, relations: RelationChanges, also: AlsoInTransaction) {
    return database.transaction(async (tx) => {
      const iid = await allocateInternalId(database, tx, {
        usage: IID_USAGE,
        scopeId: row.projectId,
        what: 'MergeRequest',
        highest: database.table(MergeRequestEntity).where('projectId', row.projectId).max({ last: 'iid' }),
      });
      const id = await database.insert(MergeRequestEntity, { ...row, iid }, { tx });
      await setRelations(tx, id, relations);
      const stored = { ...row, id, iid, lockVersion: 0 };
      await also(tx, stored);
      return stored;
    });
  }

  const list = (filter: MergeRequestFilter) => applyMergeRequestFilter(database.from(MergeRequestEntity, 'm'), filter);

  /** A page of the filter in the order, with the filter's total beside each row. */
  function pageQuery(filter: MergeRequestFilter, order: ListOrder, limit: number, offset: number) {
    const total = applyMergeRequestFilter(database.table(MergeRequestEntity, 'm').count(), filter);
    const query = list(filter).selectQuery(TOTAL_COLUMN, total);
    order.terms(query);
    return query.orderBy('m.id', order.direction).limit(limit).offset(offset);
  }

  /** The filter as named parameters; every project is a statement without the project condition, a shape of its own. */
  function pageParams(filter: MergeRequestFilter): FilterParams<MergeRequestFilter> | undefined {
    if (filter.projectIds !== 'every') return filterParams(filter);
    const { projectIds: _every, ...rest } = filter;
    const params = filterParams(rest);
    if (!params) return undefined;
    return { key: `${params.key}|projectIds=every`, values: params.values, standIn: (p) => ({ ...params.standIn(p), projectIds: 'every' }) };
  }

  const pages = readsByShape<PreparedRead<ListRow, string>>(LIST_SHAPES);
  /** The page read of a filter's shape, built once with the filter's values as parameters. */
  function preparedPage(order: ListOrder, filter: MergeRequestFilter) {
    const params = order.key === undefined ? undefined : pageParams(filter);
    if (!params) return undefined;
    const read = pages(
      `${order.key}|${params.key}`,
      () => database.prepareRows((p) => pageQuery(params.standIn(p), order, p.limit, p.offset)) as PreparedRead<ListRow, string>,
    );
    return { read, values: params.values, key: `${order.key}|${params.key}` };
  }
  /** Pages by statement and values, kept under the change mark of the request that read them (see `list`); each request gets rows of its own. */
  const keptPageRows = keptUnderMark<ListRow[]>(PAGES_KEPT, (rows) => rows.map((row) => ({ ...row })));

  return {
    /** Inserts with the project's next iid; concurrent creates take turns, and a lost race on the unique iid retries. */
    async insert(row: NewMergeRequest, relations: RelationChanges, also: AlsoInTransaction): Promise<MergeRequestRow> {
      for (let attempt = 1; ; attempt++) {
        const attempted = insertOnce(row, relations, also);
        const stored = attempt < IID_ATTEMPTS ? await unlessTaken(attempted, () => null) : await attempted;
        if (stored) return stored;
      }
    },

    async update(
      mergeRequest: MergeRequestRow,
      changes: Partial<NewMergeRequest>,
      relations: RelationChanges,
      also: AlsoInTransaction,
    ): Promise<MergeRequestRow> {
      return database.transaction(async (tx) => {
        const changed = Object.keys(changes).length > 0;
        if (changed) await database.update(MergeRequestEntity, { id: mergeRequest.id }, changes, { tx });
        await setRelations(tx, mergeRequest.id, relations);
        const stored = { ...mergeRequest, ...changes, lockVersion: mergeRequest.lockVersion + (changed ? 1 : 0) };
        await also(tx, stored);
        return stored;
      });
    },

    /**
     * Moves an open merge request to `merged`, only if it is still open and unchanged since
     * `seenAt`; answers false when another request got there first.
     */
    async markMerged(mergeRequest: MergeRequestRow, changes: Partial<NewMergeRequest>, also: AlsoInTransaction): Promise<MergeRequestRow | null> {
      return database.transaction(async (tx) => {
        const moved = await database.update(MergeRequestEntity, { id: mergeRequest.id, state: 'opened' }, { ...changes, state: 'merged' }, { tx });
        if (moved === 0) return null;
        const stored: MergeRequestRow = { ...mergeRequest, ...changes, state: 'merged', lockVersion: mergeRequest.lockVersion + 1 };
        await also(tx, stored);
        return stored;
      });
    },

    /** Records a version of the merge request's diff. */
    async addVersion(tx: Transaction, mergeRequestId: number, shas: { head: string; base: string | null; start: string | null }): Promise<void> {
      await database.insert(
        MergeRequestVersionEntity,
        { mergeRequestId, headCommitSha: shas.head, baseCommitSha: shas.base, startCommitSha: shas.start, createdAt: new Date() },
        { tx },
      );
    },

    /** A merge request's versions, newest first. */
    versionsOf: (mergeRequestId: number): Promise<MergeRequestVersionRow[]> =>
      database.rows(database.from(MergeRequestVersionEntity).where({ mergeRequestId }).orderBy('id', 'desc')),

    findVersion: async (mergeRequestId: number, id: number): Promise<MergeRequestVersionRow | undefined> =>
      (await database.rows(database.from(MergeRequestVersionEntity).where({ mergeRequestId, id }).limit(1)))[0],

    byIds: (ids: readonly number[]): Promise<MergeRequestRow[]> =>
      ids.length === 0
        ? Promise.resolve([])
        : database.rows(
            database
              .from(MergeRequestEntity)
              .whereIn('id', [...ids])
              .orderBy('id'),
          ),

    latestOf: async (projectId: number): Promise<MergeRequestRow | undefined> =>
      (await database.rows(database.from(MergeRequestEntity).where({ projectId }).orderBy('id', 'desc').limit(1)))[0],

    findById: (id: number): Promise<MergeRequestRow | undefined> => database.row(database.from(MergeRequestEntity).where({ id })),
    findByIid: (projectId: number, iid: number): Promise<MergeRequestRow | undefined> => byIid.first({ projectId, iid }),

    /** The open merge request of a source branch into a target branch, other than `exceptId`. */
    async openFor(projectId: number, sourceBranch: string, targetBranch: string, exceptId?: number): Promise<MergeRequestRow | undefined> {
      const query = database.from(MergeRequestEntity).where({ projectId, sourceBranch, targetBranch, state: 'opened' });
      if (exceptId !== undefined) query.whereNot('id', exceptId);
      return (await database.rows(query.orderBy('id').limit(1)))[0];
    },

    /** Open merge requests of a project whose source branch is one of these. */
    openFromBranches: (projectId: number, branches: readonly string[]): Promise<MergeRequestRow[]> =>
      branches.length === 0
        ? Promise.resolve([])
        : database.rows(
            database
              .from(MergeRequestEntity)
              .where({ projectId, state: 'opened' })
              .whereIn('sourceBranch', [...branches])
              .orderBy('id'),
          ),

    /**
     * A page of merge requests; each row also carries the filter's total as TOTAL_COLUMN.
     *
     * `mark`: the reading request's change mark (see `requestMark` in the kernel). A page of a
     * statement built once per shape is kept under it: a request under the same mark with the
     * same statement and values takes it instead of reading it again, since nothing was
     * committed since, by any process. Each request gets rows of its own.
     */
    async list(filter: MergeRequestFilter, order: ListOrder, limit: number, offset: number, mark?: number): Promise<ListRow[]> {
      const prepared = preparedPage(order, filter);
      if (!prepared) return database.rows(pageQuery(filter, order, limit, offset));
      const values = { ...prepared.values, limit, offset };
      return keptPageRows(`${prepared.key}|${JSON.stringify(values)}`, mark, () => prepared.read.all(values));
    },

    /** Ids of every merge request the filter matches (the popularity order's votes). */
    async idsOf(filter: MergeRequestFilter): Promise<number[]> {
      return (await database.values(applyMergeRequestFilter(database.table(MergeRequestEntity, 'm').select({ id: 'm.id' }), filter), { id: 'number' })).map(
        (row) => row.id,
      );
    },

    /** The distinct milestones of the merge requests a filter matches. */
    async milestoneIdsOf(filter: MergeRequestFilter): Promise<number[]> {
      const rows = await database.values(
        applyMergeRequestFilter(database.table(MergeRequestEntity, 'm').distinct().select({ milestoneId: 'm.milestoneId' }), filter).whereNotNull(
          'm.milestoneId',
        ),
        { milestoneId: 'number' },
      );
      return rows.map((row) => row.milestoneId);
    },

    /** The distinct (project, label) pairs on the merge requests a filter matches. */
    projectLabelsOf: (filter: MergeRequestFilter): Promise<{ projectId: number; labelId: number }[]> =>
      database.values(
        applyMergeRequestFilter(
          database
            .table(MergeRequestEntity, 'm')
            .join(MergeRequestLabelEntity, 'pl', 'pl.mergeRequestId', 'm.id')
            .distinct()
            .select({ projectId: 'm.projectId', labelId: 'pl.labelId' }),
          filter,
        ),
        { projectId: 'number', labelId: 'number' },
      ),

    count: (filter: MergeRequestFilter) => database.count(applyMergeRequestFilter(database.table(MergeRequestEntity, 'm'), filter)),

    /** Assignees, reviewers and labels of several merge requests, each in the order they were added. */
    async relationsOf(ids: readonly number[]): Promise<Relations> {
      const relations: Relations = { assignees: new Map(), reviewers: new Map(), labels: new Map() };
      if (ids.length === 0) return relations;
      const push = (map: Map<number, number[]>, key: number, value: number) => {
        const list = map.get(key);
        if (list) list.push(value);
        else map.set(key, [value]);
      };
      const [users, labels] = await Promise.all([userLinks.all({ ids }), labelLinks.all({ ids })]);
      for (const row of users) push(row.role === 'assignee' ? relations.assignees : relations.reviewers, row.mergeRequestId, row.userId);
      for (const row of labels) push(relations.labels, row.mergeRequestId, row.labelId);
      return relations;
    },

    /** The labels that merge requests of these projects (or of every project) carry. */
    async labelIdsIn(projectIds: readonly number[] | 'every'): Promise<number[]> {
      if (projectIds === 'every') return (await everyLabelCarried.all({})).map((row) => row.labelId);
      if (projectIds.length === 0) return [];
      return (await labelsCarried.all({ projectIds })).map((row) => row.labelId);
    },

    /** Opened, closed and merged merge requests per label, among those the caller may list. */
    countsPerLabel: createMergeRequestLabelCounts(database),

    async remove(id: number): Promise<void> {
      await database.transaction(async (tx) => {
        await database.delete(MergeRequestUserEntity, { mergeRequestId: id }, { tx });
        await database.delete(MergeRequestLabelEntity, { mergeRequestId: id }, { tx });
        await database.delete(MergeRequestVersionEntity, { mergeRequestId: id }, { tx });
        await database.delete(MergeRequestEntity, { id }, { tx });
      });
    },

    /** Removes a project's merge requests; answers their ids. */
    async removeAllOfProject(projectId: number): Promise<number[]> {
      const ids = (await database.values(database.table(MergeRequestEntity).select('id').where('projectId', projectId), { id: 'number' })).map((row) => row.id);
      await releaseInternalIds(database, IID_USAGE, projectId);
      if (ids.length === 0) return [];
      await database.transaction(async (tx) => {
        await database.delete(MergeRequestUserEntity, { mergeRequestId: { $in: ids } }, { tx });
        await database.delete(MergeRequestLabelEntity, { mergeRequestId: { $in: ids } }, { tx });
        await database.delete(MergeRequestVersionEntity, { mergeRequestId: { $in: ids } }, { tx });
        await database.delete(MergeRequestEntity, { projectId }, { tx });
      });
      return ids;
    },

    removeLabel: (labelId: number) => database.delete(MergeRequestLabelEntity, { labelId }),
    removeUser: (userId: number) => database.delete(MergeRequestUserEntity, { userId }),
    clearMilestone: (milestoneId: number) => database.update(MergeRequestEntity, { milestoneId }, { milestoneId: null }),
    /** Whether the user authored or merged any merge request: what the Ghost User takes over. */
    leftBehindBy: async (userId: number) =>
      (await database.count(
        database
          .table(MergeRequestEntity)
          .where((q) => q.where('authorId', userId).orWhere('mergedById', userId))
          .limit(1),
      )) > 0,
    /**
     * A deleted user's merge requests and merges pass to the Ghost User (`ghostId`, null when
     * `leftBehindBy` found none), and their closes are forgotten, as GitLab migrates records.
     */
    async handOver(userId: number, ghostId: number | null): Promise<void> {
      await database.transaction(async (tx) => {
        if (ghostId !== null) {
          await database.update(MergeRequestEntity, { authorId: userId }, { authorId: ghostId }, { tx });
          await database.update(MergeRequestEntity, { mergedById: userId }, { mergedById: ghostId }, { tx });
        }
        await database.update(MergeRequestEntity, { closedById: userId }, { closedById: null }, { tx });
      });
    },
  };
}

export type MergeRequestStore = ReturnType<typeof createMergeRequestStore>;
