/** Issues, their assignees and their labels in the database, read and written by property. */
import { TOTAL_COLUMN, type Database, type Transaction } from '@forgekit/kernel';
import { allocateInternalId, filterParams, readsByShape, releaseInternalIds, sql, unlessTaken, type PreparedRead } from '@forgekit/kernel/orm';
import { IssueEntity, type IssueRow } from '../entities/issue.js';
import { IssueAssigneeEntity } from '../entities/issue-assignee.js';
import { IssueLabelEntity } from '../entities/issue-label.js';
import { applyIssueFilter, type IssueFilter } from './issue-filter.js';
import { createIssueLabelCounts } from './issue-label-counts.js';
import type { IssueOrder } from './issue-order.js';

/** The `internal_ids` counter of a project's issues. */
const IID_USAGE = 'issues';

export type NewIssue = Omit<IssueRow, 'id' | 'iid'>;

/** What a write does besides the issue row, in the same transaction (system notes, milestone events). */
export type AlsoInTransaction = (tx: Transaction, issue: IssueRow) => Promise<void>;

/** A next iid that lost a race to another process is retried this often. */
const IID_ATTEMPTS = 5;

/** List statements kept, one per filter shape and order; past this many they are compiled afresh. */
const LIST_SHAPES = 100;

type ListRow = IssueRow & { [TOTAL_COLUMN]?: unknown };

/**
 * What a list page reads of an issue when the presented cache may hold it: the fragment's key
 * (the row's version, its project for the path). Only the issues without a kept fragment are read whole.
 */
export interface IssueKey {
  id: number;
  projectId: number;
  lockVersion: number;
}
type KeyRow = IssueKey & { [TOTAL_COLUMN]?: unknown };

const groupIds = (rows: { issueId: number }[], value: (row: never) => number) => {
  const byIssue = new Map<number, number[]>();
  for (const row of rows) {
    const list = byIssue.get(row.issueId) ?? [];
    list.push(value(row as never));
    byIssue.set(row.issueId, list);
  }
  return byIssue;
};

/**
 * Raises the version of issues whose assignees or labels change outside an update of the issue
 * (a label or user deleted, labels merged): kept answers hold those links by the issue's version.
 * Each project's issues are set to the project they have, a change of nothing that makes the ORM
 * raise the version in the same statement.
 */
export async function touchIssues(database: Database, tx: Transaction, issueIds: readonly number[]): Promise<void> {
  if (issueIds.length === 0) return;
  const rows = await database.values(
    database
      .table(IssueEntity)
      .select({ id: 'id', projectId: 'projectId' })
      .whereIn('id', [...new Set(issueIds)]),
    {
      id: 'number',
      projectId: 'number',
    },
    { tx },
  );
  const byProject = new Map<number, number[]>();
  for (const row of rows) byProject.set(row.projectId, [...(byProject.get(row.projectId) ?? []), row.id]);
  for (const [projectId, ids] of byProject) await database.update(IssueEntity, { id: { $in: ids }, projectId }, { projectId }, { tx });
}

export function createIssueStore(database: Database) {
  const byIid = database.prepareRows((p) => database.from(IssueEntity).where({ projectId: p.projectId, iid: p.iid }).limit(1));
  const byIds = database.prepareRows((p) => database.from(IssueEntity).whereIn('id', p.ids).orderBy('id'));
  const assigneeRows = database.prepareRows((p) => database.from(IssueAssigneeEntity).whereIn('issueId', p.ids).orderBy('id'));
  const labelRows = database.prepareRows((p) => database.from(IssueLabelEntity).whereIn('issueId', p.ids).orderBy('id'));
  /** Assignees (kind 0) and label links (kind 1) of several issues, each kind in the order it was added. */
  const relationRows = database.prepareValues(
    (p) =>
      database
        .table(IssueAssigneeEntity)
        .select({ issueId: 'issueId' })
        .selectSql('kind', sql`0`)
        .select({ ref: 'userId' }, 'id')
        .whereIn('issueId', p.ids)
        .unionAll(
          database.table(IssueLabelEntity).select({ issueId: 'issueId' }).selectSql('kind', sql`1`).select({ ref: 'labelId' }, 'id').whereIn('issueId', p.ids),
        )
        .orderBy('id'),
    { issueId: 'number', kind: 'number', ref: 'number', id: 'number' },
  );

  const assign = (tx: Transaction, issueId: number, userIds: readonly number[]) =>
    database.insertMany(
      IssueAssigneeEntity,
      userIds.map((userId) => ({ issueId, userId })),
      { tx },
    );

  function addLabels(tx: Transaction, issueId: number, labelIds: readonly number[]) {
    const createdAt = new Date();
    return database.insertMany(
      IssueLabelEntity,
      labelIds.map((labelId) => ({ issueId, labelId, createdAt })),
      { tx },
    );
  }

  function insertOnce(issue: NewIssue, assigneeIds: readonly number[], labelIds: readonly number[], also: AlsoInTransaction, chosenIid?: number) {
    return database.transaction(async (tx) => {
      const iid = await allocateInternalId(
        database,
        tx,
        {
          usage: IID_USAGE,
          scopeId: issue.projectId,
          what: 'Issue',
          highest: database.table(IssueEntity).where('projectId', issue.projectId).max({ last: 'iid' }),
        },
        chosenIid,
      );
      const id = await database.insert(IssueEntity, { ...issue, iid }, { tx });
      await assign(tx, id, assigneeIds);
      await addLabels(tx, id, labelIds);
      const stored = { ...issue, id, iid };
      await also(tx, stored);
      return stored;
    });
  }

  /** A page of the filter in the order, with the filter's total beside each row; `keys` reads each row as its `IssueKey`. */
  function pageQuery(filter: IssueFilter, order: IssueOrder, limit: number, offset: number, keys = false) {
    const total = applyIssueFilter(database.table(IssueEntity, 'i').count(), filter);
    const rows = keys ? database.table(IssueEntity, 'i').select('i.id', 'i.projectId', 'i.lockVersion') : database.from(IssueEntity, 'i');
    const query = applyIssueFilter(rows, filter).selectQuery(TOTAL_COLUMN, total);
    order.terms(query);
    return query.orderBy('i.id', order.direction).limit(limit).offset(offset);
  }

  const pages = readsByShape<PreparedRead<ListRow | KeyRow, string>>(LIST_SHAPES);
  /** The page read of a filter's shape, built once with the filter's values as parameters. */
  function preparedPage(order: IssueOrder, filter: IssueFilter, keys: boolean) {
    const params = order.key === undefined ? undefined : filterParams(filter);
    if (!params) return undefined;
    const read = pages(
      `${order.key}|${params.key}|${keys}`,
      () => database.prepareRows((p) => pageQuery(params.standIn(p), order, p.limit, p.offset, keys)) as PreparedRead<ListRow | KeyRow, string>,
    );
    return { read, values: params.values };
  }

  return {
    /**
     * Inserts with the project's next iid (or `chosenIid`); concurrent creates take turns, and a
     * lost race on the unique iid retries. A chosen iid that is taken fails with the unique violation.
     */
    async insert(issue: NewIssue, assigneeIds: readonly number[], labelIds: readonly number[], also: AlsoInTransaction, chosenIid?: number): Promise<IssueRow> {
      for (let attempt = 1; ; attempt++) {
        const attempted = insertOnce(issue, assigneeIds, labelIds, also, chosenIid);
        const stored = chosenIid === undefined && attempt < IID_ATTEMPTS ? await unlessTaken(attempted, () => null) : await attempted;
        if (stored) return stored;
      }
    },

    async update(
      issue: IssueRow,
      changes: Partial<NewIssue>,
      relations: { assigneeIds?: readonly number[]; addLabelIds?: readonly number[]; removeLabelIds?: readonly number[] },
      also: AlsoInTransaction,
    ): Promise<IssueRow> {
      return database.transaction(async (tx) => {
        await database.update(IssueEntity, { id: issue.id }, changes, { tx });
        if (relations.assigneeIds) {
          await database.delete(IssueAssigneeEntity, { issueId: issue.id }, { tx });
          await assign(tx, issue.id, relations.assigneeIds);
        }
        if (relations.removeLabelIds?.length)
          await database.delete(IssueLabelEntity, { issueId: issue.id, labelId: { $in: [...relations.removeLabelIds] } }, { tx });
        if (relations.addLabelIds?.length) await addLabels(tx, issue.id, relations.addLabelIds);
        // The ORM raised the version by one in the update's own statement (none without changes).
        const stored = { ...issue, ...changes, lockVersion: Object.keys(changes).length > 0 ? issue.lockVersion + 1 : issue.lockVersion };
        await also(tx, stored);
        return stored;
      });
    },

    findByIid: (projectId: number, iid: number): Promise<IssueRow | undefined> => byIid.first({ projectId, iid }),

    byIds: (ids: readonly number[]): Promise<IssueRow[]> => (ids.length === 0 ? Promise.resolve([]) : byIds.all({ ids })),
    latestOf: (projectId: number): Promise<IssueRow | undefined> =>
      database.row(database.from(IssueEntity).where({ projectId }).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(1)),

    /** A page of issues; each row also carries the filter's total as TOTAL_COLUMN, so a page needs no second statement. */
    async list(filter: IssueFilter, order: IssueOrder, limit: number, offset: number): Promise<ListRow[]> {
      const prepared = preparedPage(order, filter, false);
      if (prepared) return prepared.read.all({ ...prepared.values, limit, offset }) as Promise<ListRow[]>;
      return database.rows(pageQuery(filter, order, limit, offset));
    },

    /** `list` read as `IssueKey`s, for a page presented from the presented cache (see `wholeByIds`). */
    async listKeys(filter: IssueFilter, order: IssueOrder, limit: number, offset: number): Promise<KeyRow[]> {
      const prepared = preparedPage(order, filter, true);
      if (prepared) return prepared.read.all({ ...prepared.values, limit, offset }) as Promise<KeyRow[]>;
      return database.rows(pageQuery(filter, order, limit, offset, true)) as Promise<KeyRow[]>;
    },

    /** The distinct iterations the issues of these projects carry. */
    async iterationIdsIn(projectIds: readonly number[]): Promise<number[]> {
      if (projectIds.length === 0) return [];
      const rows = await database.values(
        database.table(IssueEntity).distinct().select({ iterationId: 'iterationId' }).whereIn('projectId', projectIds).whereNotNull('iterationId'),
        { iterationId: 'number' },
      );
      return rows.map((row) => row.iterationId);
    },

    /** The distinct milestones of the issues a filter matches. */
    async milestoneIdsOf(filter: IssueFilter): Promise<number[]> {
      const rows = await database.values(
        applyIssueFilter(database.table(IssueEntity, 'i').distinct().select({ milestoneId: 'i.milestoneId' }), filter).whereNotNull('i.milestoneId'),
        { milestoneId: 'number' },
      );
      return rows.map((row) => row.milestoneId);
    },

    /** The distinct (project, label) pairs on the issues a filter matches. */
    projectLabelsOf: (filter: IssueFilter): Promise<{ projectId: number; labelId: number }[]> =>
      database.values(
        applyIssueFilter(
          database
            .table(IssueEntity, 'i')
            .join(IssueLabelEntity, 'pl', 'pl.issueId', 'i.id')
            .distinct()
            .select({ projectId: 'i.projectId', labelId: 'pl.labelId' }),
          filter,
        ),
        { projectId: 'number', labelId: 'number' },
      ),

    count: (filter: IssueFilter) => database.count(applyIssueFilter(database.table(IssueEntity, 'i'), filter)),

    async assigneesOf(issueIds: readonly number[]): Promise<Map<number, number[]>> {
      if (issueIds.length === 0) return new Map();
      return groupIds(await assigneeRows.all({ ids: issueIds }), (row: { userId: number }) => row.userId);
    },

    /** Assignees and label links of several issues in one statement. */
    async relationsOf(issueIds: readonly number[]): Promise<{ assignees: Map<number, number[]>; labels: Map<number, number[]> }> {
      const assignees = new Map<number, number[]>();
      const labels = new Map<number, number[]>();
      if (issueIds.length === 0) return { assignees, labels };
      for (const row of await relationRows.all({ ids: issueIds })) {
        const target = row.kind === 0 ? assignees : labels;
        const list = target.get(row.issueId) ?? [];
        list.push(row.ref);
        target.set(row.issueId, list);
      }
      return { assignees, labels };
    },

    async labelsOf(issueIds: readonly number[]): Promise<Map<number, number[]>> {
      if (issueIds.length === 0) return new Map();
      return groupIds(await labelRows.all({ ids: issueIds }), (row: { labelId: number }) => row.labelId);
    },

    /** Opened and closed issues among those `filter` keeps, in one grouped statement. */
    async countsByState(filter: IssueFilter): Promise<{ opened: number; closed: number }> {
      const query = database.table(IssueEntity, 'i').select({ state: 'i.state' }).count({ count: '*' }).groupBy('i.state');
      const rows = await database.values(applyIssueFilter(query, filter), { state: 'string', count: 'number' });
      const counts = { opened: 0, closed: 0 };
      for (const row of rows) if (row.state === 'opened' || row.state === 'closed') counts[row.state] += row.count;
      return counts;
    },

    /** Opened and closed issues per label, among those the caller may list. */
    countsPerLabel: createIssueLabelCounts(database),

    /** Removes one issue (its assignees and labels go with it). */
    async remove(id: number): Promise<void> {
      await database.transaction(async (tx) => {
        await database.delete(IssueAssigneeEntity, { issueId: id }, { tx });
        await database.delete(IssueLabelEntity, { issueId: id }, { tx });
        await database.delete(IssueEntity, { id }, { tx });
      });
    },

    /** Removes a project's issues; answers their ids. */
    async removeAllOfProject(projectId: number): Promise<number[]> {
      const ids = (await database.values(database.table(IssueEntity).select('id').where('projectId', projectId), { id: 'number' })).map((issue) => issue.id);
      await releaseInternalIds(database, IID_USAGE, projectId);
      if (ids.length === 0) return [];
      await database.transaction(async (tx) => {
        await database.delete(IssueAssigneeEntity, { issueId: { $in: ids } }, { tx });
        await database.delete(IssueLabelEntity, { issueId: { $in: ids } }, { tx });
        await database.delete(IssueEntity, { projectId }, { tx });
      });
      return ids;
    },

    /** Takes a label off every issue (the label was deleted). */
    removeLabel: (labelId: number) =>
      database.transaction(async (tx) => {
        const links = await database.values(
          database.table(IssueLabelEntity).select({ issueId: 'issueId' }).where('labelId', labelId),
          { issueId: 'number' },
          { tx },
        );
        await touchIssues(
          database,
          tx,
          links.map((link) => link.issueId),
        );
        await database.delete(IssueLabelEntity, { labelId }, { tx });
      }),
    /** The issues a user authored. */
    authoredBy: (userId: number): Promise<IssueRow[]> => database.rows(database.table(IssueEntity).where('authorId', userId).orderBy('id')),
    /** Whether a user authored any issue. */
    authoredAny: async (userId: number) => (await database.count(database.table(IssueEntity).where('authorId', userId).limit(1))) > 0,
    /** What a deleted user authored passes to `ghostId`; their closes and edits are forgotten, as GitLab's keys nullify them. */
    async handOver(userId: number, ghostId: number): Promise<void> {
      await database.transaction(async (tx) => {
        await database.update(IssueEntity, { authorId: userId }, { authorId: ghostId }, { tx });
        await database.update(IssueEntity, { closedById: userId }, { closedById: null }, { tx });
        await database.update(IssueEntity, { updatedById: userId }, { updatedById: null }, { tx });
      });
    },
    /** Unassigns a deleted user. */
    removeAssignee: (userId: number) =>
      database.transaction(async (tx) => {
        const links = await database.values(
          database.table(IssueAssigneeEntity).select({ issueId: 'issueId' }).where('userId', userId),
          { issueId: 'number' },
          { tx },
        );
        await touchIssues(
          database,
          tx,
          links.map((link) => link.issueId),
        );
        await database.delete(IssueAssigneeEntity, { userId }, { tx });
      }),
    /** Clears a deleted milestone or iteration. */
    clearMilestone: (milestoneId: number) => database.update(IssueEntity, { milestoneId }, { milestoneId: null }),
    clearIteration: (iterationId: number) => database.update(IssueEntity, { iterationId }, { iterationId: null }),
  };
}

export type IssueStore = ReturnType<typeof createIssueStore>;
