/** Issues, their assignees and their labels in the database. */
import { TOTAL_COLUMN, type Database } from '@forgekit/kernel';
import { idListReads, isUniqueViolation, nextInternalId, type EntityManager } from '@forgekit/kernel/orm';
import { IssueEntity, type IssueRow } from '../entities/issue.js';
import { IssueAssigneeEntity } from '../entities/issue-assignee.js';
import { IssueLabelEntity, type IssueLabelRow } from '../entities/issue-label.js';
import { applyIssueFilter, type IssueFilter } from './issue-filter.js';
import type { IssueOrder } from './issue-order.js';

export type NewIssue = Omit<IssueRow, 'id' | 'iid'>;

/** What a write does besides the issue row, in the same transaction (system notes, milestone events). */
export type AlsoInTransaction = (em: EntityManager, issue: IssueRow) => Promise<void>;

/** A next iid that lost a race to another process is retried this often. */
const IID_ATTEMPTS = 5;

const groupIds = (rows: { issueId: number }[], value: (row: never) => number) => {
  const byIssue = new Map<number, number[]>();
  for (const row of rows) {
    const list = byIssue.get(row.issueId) ?? [];
    list.push(value(row as never));
    byIssue.set(row.issueId, list);
  }
  return byIssue;
};

export function createIssueStore(database: Database) {
  const byIid = database.legacy.prepareRows(IssueEntity, (p) => database.legacy.from(IssueEntity).where({ project_id: p.projectId, iid: p.iid }).limit(1));
  const knex = database.legacy.knex;
  const relationRows = idListReads((ids) =>
    database.legacy.prepareValues(
      (p: Record<string, never>) => {
        const issueIds = ids(p);
        return knex
          .select({ issueId: 'issue_id' }, knex.raw('0 as kind'), { ref: 'user_id' }, 'id')
          .from('issue_assignees')
          .whereIn('issue_id', issueIds)
          .unionAll((union) =>
            union.select({ issueId: 'issue_id' }, knex.raw('1 as kind'), { ref: 'label_id' }, 'id').from('issue_labels').whereIn('issue_id', issueIds),
          )
          .orderBy([{ column: 'kind' }, { column: 'id' }]);
      },
      { issueId: 'number', kind: 'number', ref: 'number', id: 'number' },
    ),
  );

  async function replaceAssignees(em: EntityManager, issueId: number, userIds: readonly number[]) {
    await em.nativeDelete(IssueAssigneeEntity, { issueId });
    for (const userId of userIds) await em.insert(IssueAssigneeEntity, { issueId, userId });
  }

  async function addLabels(em: EntityManager, issueId: number, labelIds: readonly number[]) {
    const now = new Date();
    for (const labelId of labelIds) await em.insert<IssueLabelRow>(IssueLabelEntity, { issueId, labelId, createdAt: now });
  }

  async function insertOnce(
    issue: NewIssue,
    assigneeIds: readonly number[],
    labelIds: readonly number[],
    also: AlsoInTransaction,
    chosenIid?: number,
  ): Promise<IssueRow> {
    return database.legacy.transaction(async (em) => {
      await database.legacy.lock(em, `issues:iid:${issue.projectId}`);
      const { last } = await database.legacy.totals<'last'>(database.legacy.table(IssueEntity).where({ project_id: issue.projectId }).max({ last: 'iid' }), {
        em,
      });
      const iid = chosenIid ?? nextInternalId(last, 'Issue');
      const id = Number(await em.insert<IssueRow>(IssueEntity, { ...issue, iid }));
      await replaceAssignees(em, id, assigneeIds);
      await addLabels(em, id, labelIds);
      const stored = { ...issue, id, iid };
      await also(em, stored);
      return stored;
    });
  }

  return {
    /**
     * Inserts with the project's next iid (or `chosenIid`); concurrent creates take turns, and a
     * lost race on the unique iid retries. A chosen iid that is taken fails with the unique violation.
     */
    async insert(issue: NewIssue, assigneeIds: readonly number[], labelIds: readonly number[], also: AlsoInTransaction, chosenIid?: number): Promise<IssueRow> {
      for (let attempt = 1; ; attempt++) {
        try {
          return await insertOnce(issue, assigneeIds, labelIds, also, chosenIid);
        } catch (error) {
          if (!isUniqueViolation(error) || chosenIid !== undefined || attempt >= IID_ATTEMPTS) throw error;
        }
      }
    },

    async update(
      issue: IssueRow,
      changes: Partial<NewIssue>,
      relations: { assigneeIds?: readonly number[]; addLabelIds?: readonly number[]; removeLabelIds?: readonly number[] },
      also: AlsoInTransaction,
    ): Promise<IssueRow> {
      return database.legacy.transaction(async (em) => {
        await em.nativeUpdate(IssueEntity, { id: issue.id }, changes);
        if (relations.assigneeIds) await replaceAssignees(em, issue.id, relations.assigneeIds);
        if (relations.removeLabelIds?.length) await em.nativeDelete(IssueLabelEntity, { issueId: issue.id, labelId: { $in: [...relations.removeLabelIds] } });
        if (relations.addLabelIds?.length) await addLabels(em, issue.id, relations.addLabelIds);
        const stored = { ...issue, ...changes };
        await also(em, stored);
        return stored;
      });
    },

    findByIid: (projectId: number, iid: number): Promise<IssueRow | undefined> => byIid.first({ projectId, iid }),

    byIds: (ids: readonly number[]): Promise<IssueRow[]> =>
      ids.length === 0
        ? Promise.resolve([])
        : database.legacy.rows(
            IssueEntity,
            database.legacy
              .from(IssueEntity)
              .whereIn('id', [...ids])
              .orderBy('id'),
          ),

    /** A page of issues; each row also carries the filter's total as TOTAL_COLUMN, so a page needs no second statement. */
    async list(filter: IssueFilter, order: IssueOrder, limit: number, offset: number): Promise<(IssueRow & { [TOTAL_COLUMN]?: unknown })[]> {
      const total = applyIssueFilter(database, database.legacy.table(IssueEntity, 'i').count('*'), filter).as(TOTAL_COLUMN);
      const query = applyIssueFilter(database, database.legacy.from(IssueEntity, 'i'), filter).select(total);
      if (order.sql !== '') query.orderByRaw(order.sql, [...(order.bindings ?? [])]);
      query.orderBy('i.id', order.direction);
      return database.legacy.rows(IssueEntity, query.limit(limit).offset(offset));
    },

    /** The distinct iterations the issues of these projects carry. */
    async iterationIdsIn(projectIds: readonly number[]): Promise<number[]> {
      if (projectIds.length === 0) return [];
      const rows = await database.legacy.values(
        database.legacy
          .table(IssueEntity)
          .distinct({ iterationId: 'iteration_id' })
          .whereIn('project_id', [...projectIds])
          .whereNotNull('iteration_id'),
        { iterationId: 'number' },
      );
      return rows.map((row) => row.iterationId);
    },

    /** The distinct milestones of the issues a filter matches. */
    async milestoneIdsOf(filter: IssueFilter): Promise<number[]> {
      const rows = await database.legacy.values(
        applyIssueFilter(database, database.legacy.table(IssueEntity, 'i').distinct({ milestoneId: 'i.milestone_id' }), filter).whereNotNull('i.milestone_id'),
        { milestoneId: 'number' },
      );
      return rows.map((row) => row.milestoneId);
    },

    /** The distinct (project, label) pairs on the issues a filter matches. */
    projectLabelsOf: (filter: IssueFilter): Promise<{ projectId: number; labelId: number }[]> =>
      database.legacy.values(
        applyIssueFilter(
          database,
          database.legacy
            .table(IssueEntity, 'i')
            .join('issue_labels as pl', 'pl.issue_id', 'i.id')
            .distinct({ projectId: 'i.project_id', labelId: 'pl.label_id' }),
          filter,
        ),
        { projectId: 'number', labelId: 'number' },
      ),

    count: (filter: IssueFilter) => database.legacy.count(applyIssueFilter(database, database.legacy.table(IssueEntity, 'i').select('i.id'), filter)),

    async assigneesOf(issueIds: readonly number[]): Promise<Map<number, number[]>> {
      if (issueIds.length === 0) return new Map();
      const rows = await database.legacy.rows(
        IssueAssigneeEntity,
        database.legacy
          .from(IssueAssigneeEntity)
          .whereIn('issue_id', [...issueIds])
          .orderBy('id'),
      );
      return groupIds(rows, (row: { userId: number }) => row.userId);
    },

    /** Assignees and label links of several issues in one statement. */
    async relationsOf(issueIds: readonly number[]): Promise<{ assignees: Map<number, number[]>; labels: Map<number, number[]> }> {
      const assignees = new Map<number, number[]>();
      const labels = new Map<number, number[]>();
      if (issueIds.length === 0) return { assignees, labels };
      const rows = await relationRows.all(issueIds);
      for (const row of rows) {
        const target = row.kind === 0 ? assignees : labels;
        const list = target.get(row.issueId) ?? [];
        list.push(row.ref);
        target.set(row.issueId, list);
      }
      return { assignees, labels };
    },

    async labelsOf(issueIds: readonly number[]): Promise<Map<number, number[]>> {
      if (issueIds.length === 0) return new Map();
      const rows = await database.legacy.rows(
        IssueLabelEntity,
        database.legacy
          .from(IssueLabelEntity)
          .whereIn('issue_id', [...issueIds])
          .orderBy('id'),
      );
      return groupIds(rows, (row: { labelId: number }) => row.labelId);
    },

    /** Opened and closed issues per label, among those `filter` keeps (the caller's visible ones). */
    async countsPerLabel(labelIds: readonly number[], filter: IssueFilter): Promise<Map<number, { opened: number; closed: number }>> {
      if (labelIds.length === 0) return new Map();
      const query = database.legacy
        .table(IssueLabelEntity, 'l')
        .join('issues as i', 'i.id', 'l.issue_id')
        .select({ labelId: 'l.label_id', state: 'i.state' })
        .count({ count: '*' })
        .whereIn('l.label_id', [...labelIds])
        .groupBy('l.label_id', 'i.state');
      const rows = await database.legacy.values(applyIssueFilter(database, query, filter), { labelId: 'number', state: 'string', count: 'number' });
      const counts = new Map<number, { opened: number; closed: number }>();
      for (const row of rows) {
        const entry = counts.get(row.labelId) ?? { opened: 0, closed: 0 };
        if (row.state === 'opened' || row.state === 'closed') entry[row.state] += row.count;
        counts.set(row.labelId, entry);
      }
      return counts;
    },

    /** Removes one issue (its assignees and labels go with it). */
    async remove(id: number): Promise<void> {
      await database.legacy.transaction(async (em) => {
        await em.nativeDelete(IssueAssigneeEntity, { issueId: id });
        await em.nativeDelete(IssueLabelEntity, { issueId: id });
        await em.nativeDelete(IssueEntity, { id });
      });
    },

    /** Removes a project's issues; answers their ids. */
    async removeAllOfProject(projectId: number): Promise<number[]> {
      const ids = (await database.legacy.rows(IssueEntity, database.legacy.from(IssueEntity).where({ project_id: projectId }))).map((issue) => issue.id);
      if (ids.length === 0) return [];
      await database.legacy.transaction(async (em) => {
        await em.nativeDelete(IssueAssigneeEntity, { issueId: { $in: ids } });
        await em.nativeDelete(IssueLabelEntity, { issueId: { $in: ids } });
        await em.nativeDelete(IssueEntity, { projectId });
      });
      return ids;
    },

    /** Takes a label off every issue (the label was deleted). */
    removeLabel: (labelId: number) => database.legacy.em().nativeDelete(IssueLabelEntity, { labelId }),
    /** Whether a user authored any issue. */
    authoredAny: async (userId: number) => (await database.legacy.count(database.legacy.table(IssueEntity).where('author_id', userId).limit(1))) > 0,
    /** What a deleted user authored passes to `ghostId`; their closes and edits are forgotten, as GitLab's keys nullify them. */
    async handOver(userId: number, ghostId: number): Promise<void> {
      await database.legacy.transaction(async (em) => {
        await em.nativeUpdate(IssueEntity, { authorId: userId }, { authorId: ghostId });
        await em.nativeUpdate(IssueEntity, { closedById: userId }, { closedById: null });
        await em.nativeUpdate(IssueEntity, { updatedById: userId }, { updatedById: null });
      });
    },
    /** Unassigns a deleted user. */
    removeAssignee: (userId: number) => database.legacy.em().nativeDelete(IssueAssigneeEntity, { userId }),
    /** Clears a deleted milestone or iteration. */
    clearMilestone: (milestoneId: number) => database.legacy.em().nativeUpdate(IssueEntity, { milestoneId }, { milestoneId: null }),
    clearIteration: (iterationId: number) => database.legacy.em().nativeUpdate(IssueEntity, { iterationId }, { iterationId: null }),
  };
}

export type IssueStore = ReturnType<typeof createIssueStore>;
