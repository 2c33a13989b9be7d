/** GitLab's issue rules: who may do what, what a create or update changes, the system notes and events it leaves. */
import {
  conflict,
  checkUnmodifiedSince,
  forbidden,
  keptUnderMark,
  longerThan,
  notFound,
  recordNotFound,
  requestMark,
  tooLongMessage,
  validationFailed,
  type EventBus,
  type Principal,
  type Transaction,
} from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import { AccessLevel, type AccessService, type ProjectAccess, type User, type UserService } from '@forgekit/plugin-core/contracts';
import type { IterationsService } from '@forgekit/plugin-iterations/contracts';
import type { LabelsService } from '@forgekit/plugin-labels/contracts';
import type { MilestoneEventsService } from '@forgekit/plugin-milestone-events/contracts';
import type { Milestone, MilestonesService } from '@forgekit/plugin-milestones/contracts';
import type { NotesService } from '@forgekit/plugin-notes/contracts';
import { issueEvents, type Issue } from '../contracts.js';
import type { IssueRow } from '../entities/issue.js';
import type { IssueRow as PresentedIssueRow } from './issue-presenter.js';
import type { CreateInput, UpdateInput } from './issue-params.js';
import type { IssueStore, NewIssue } from './issue-store.js';
import * as texts from './system-note-texts.js';

/** GitLab's Issue model limits. */
export const TITLE_MAX = 255;
export const DESCRIPTION_MAX = 1_048_576;

export interface IssueServiceDeps {
  store: IssueStore;
  access: AccessService;
  users: UserService;
  labels: LabelsService;
  milestones: MilestonesService;
  milestoneEvents: MilestoneEventsService;
  notes: NotesService;
  iterations?: IterationsService;
  events: EventBus;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A `YYYY-MM-DD` that names a real day. */
function validDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** Issues looked up by iid for reading requests (see `find`); past this many, the memo starts again. */
const ISSUES_KEPT = 1024;

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, index) => id === b[index]);

export function createIssueService(deps: IssueServiceDeps) {
  const { store, access } = deps;

  /** Planner and above manage issues (GitLab's admin_issue, set_issue_metadata); admins count as owners. */
  const managesIssues = (projectAccess: ProjectAccess) => projectAccess.level >= AccessLevel.PLANNER;

  async function canRead(user: Principal | null, projectAccess: ProjectAccess, issue: IssueRow): Promise<boolean> {
    if (!issue.confidential) return true;
    if (!user) return false;
    if (user.isAdmin || managesIssues(projectAccess) || issue.authorId === user.id) return true;
    return ((await store.assigneesOf([issue.id])).get(issue.id) ?? []).includes(user.id);
  }

  /**
   * Issues by project and iid, kept between reading requests under their change mark (a note
   * list looks its issue up on every request); each request gets a row of its own.
   */
  const keptIssues = keptUnderMark<IssueRow | undefined>(ISSUES_KEPT, (row) => row && { ...row });

  /** The issue of a project route, readable by the caller, else `404 Not found` (GitLab's finder hides confidential issues). */
  async function find(user: Principal | null, projectAccess: ProjectAccess, iid: number | string): Promise<IssueRow> {
    const number = typeof iid === 'number' ? iid : /^\d+$/.test(iid) ? Number(iid) : Number.NaN;
    const projectId = projectAccess.project.id;
    const issue = Number.isSafeInteger(number)
      ? await keptIssues(`${projectId}:${number}`, requestMark(user), () => store.findByIid(projectId, number))
      : undefined;
    if (!issue || !(await canRead(user, projectAccess, issue))) throw recordNotFound();
    return issue;
  }

  function validate(fields: { title?: string | null; description?: string | null; due_date?: string | null }) {
    const errors: Record<string, string[]> = {};
    if (fields.title !== undefined) {
      if (fields.title === null || fields.title.trim() === '') errors.title = ["can't be blank"];
      else if (longerThan(fields.title, TITLE_MAX)) errors.title = [tooLongMessage(TITLE_MAX)];
    }
    if (fields.description && longerThan(fields.description, DESCRIPTION_MAX)) errors.description = [tooLongMessage(DESCRIPTION_MAX)];
    if (fields.due_date && !validDate(fields.due_date)) errors.due_date = ['is invalid'];
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
  }

  /** Assignees as GitLab keeps them: active users who can read the project, in the order given. */
  const assignable = (projectId: number, ids: readonly number[]): Promise<User[]> => access.activeReadersOf(projectId, ids);

  async function milestoneFor(projectId: number, id: number | null | undefined): Promise<Milestone | null> {
    if (!id) return null;
    return deps.milestones.forProject(projectId, id);
  }

  async function iterationIdFor(projectId: number, id: number | null | undefined): Promise<number | null> {
    if (!id || !deps.iterations) return null;
    return (await deps.iterations.forProject(projectId, id))?.id ?? null;
  }

  const assigneeIdsOf = (input: { assignee_ids?: number[] | null; assignee_id?: number | null }) =>
    input.assignee_ids !== undefined
      ? (input.assignee_ids ?? [])
      : input.assignee_id !== undefined
        ? input.assignee_id
          ? [input.assignee_id]
          : []
        : undefined;

  const note = (tx: Transaction, issue: IssueRow, authorId: number, body: string) =>
    deps.notes.recordSystemNote({ noteableType: 'Issue', noteableId: issue.id, noteableIid: issue.iid, projectId: issue.projectId, authorId, body, tx });

  return {
    canRead,
    find,
    managesIssues,

    /** The contract's lookup: project by id or path, then the issue, with GitLab's 404s. */
    async findForUser(user: Principal | null, projectIdOrPath: string, iid: number | string): Promise<IssueRow> {
      return find(user, await access.requireProject(user, projectIdOrPath), iid);
    },

    async create(user: Principal, projectAccess: ProjectAccess, input: CreateInput): Promise<IssueRow> {
      validate(input);
      const projectId = projectAccess.project.id;
      const metadata = managesIssues(projectAccess);
      const owner = user.isAdmin || projectAccess.level >= AccessLevel.OWNER;
      const assignees = metadata ? await assignable(projectId, assigneeIdsOf(input) ?? []) : [];
      const titles = metadata ? [...(input.labels ?? []), ...(input.add_labels ?? [])] : [];
      const labels = titles.length > 0 ? await deps.labels.forProject(projectId, titles, { create: { userId: user.id } }) : [];
      const labelIds = [...new Set(labels.map((label) => label.id))];
      const milestone = metadata ? await milestoneFor(projectId, input.milestone_id) : null;
      const iterationId = metadata ? await iterationIdFor(projectId, input.iteration_id) : null;
      const now = new Date();
      const createdAt = owner && input.created_at ? input.created_at : now;
      const row: NewIssue = {
        projectId,
        title: input.title,
        description: input.description ?? null,
        state: 'opened',
        confidential: input.confidential ?? false,
        discussionLocked: metadata ? (input.discussion_locked ?? null) : null,
        authorId: user.id,
        milestoneId: milestone?.id ?? null,
        iterationId,
        dueDate: metadata ? (input.due_date ?? null) : null,
        closedAt: null,
        closedById: null,
        updatedById: null,
        createdAt,
        updatedAt: createdAt,
        lockVersion: 0,
      };
      const inserted = store.insert(
        row,
        assignees.map((a) => a.id),
        labelIds,
        async (tx, stored) => {
          if (milestone) {
            await deps.milestoneEvents.record({
              resourceType: 'Issue',
              resourceId: stored.id,
              projectId,
              userId: user.id,
              from: null,
              to: milestone.id,
              state: 'opened',
              tx,
            });
          }
        },
        owner ? (input.iid ?? undefined) : undefined,
      );
      // GitLab has no uniqueness validation on iid: the database refuses the row and the API answers 409.
      const issue = await unlessTaken(inserted, () => {
        throw conflict('Duplicated issue');
      });
      await deps.events.emit(issueEvents.created, { issueId: issue.id, projectId, userId: user.id });
      return issue;
    },

    /** May the caller update this issue: Planner and above, its author, or an assignee. */
    async canUpdate(user: Principal, projectAccess: ProjectAccess, issue: IssueRow): Promise<boolean> {
      if (user.isAdmin || managesIssues(projectAccess) || issue.authorId === user.id) return true;
      return ((await store.assigneesOf([issue.id])).get(issue.id) ?? []).includes(user.id);
    },

    async update(user: Principal, projectAccess: ProjectAccess, issue: IssueRow, input: UpdateInput): Promise<IssueRow> {
      validate({ title: input.title, description: input.description, due_date: input.due_date });
      const projectId = projectAccess.project.id;
      const metadata = managesIssues(projectAccess);
      const owner = user.isAdmin || projectAccess.level >= AccessLevel.OWNER;
      const changes: Partial<NewIssue> = {};
      const changed: Record<string, { previous: unknown; current: unknown }> = {};
      const notes: string[] = [];
      const set = <K extends keyof NewIssue>(key: K, wire: string, value: NewIssue[K]) => {
        const previous = issue[key];
        const same = previous instanceof Date && value instanceof Date ? previous.getTime() === value.getTime() : previous === value;
        if (same) return false;
        changes[key] = value;
        changed[wire] = {
          previous: previous instanceof Date ? previous.toISOString() : previous,
          current: value instanceof Date ? value.toISOString() : value,
        };
        return true;
      };

      if (input.title !== undefined && input.title !== null && set('title', 'title', input.title)) notes.push(texts.titleChangeNote(issue.title, input.title));
      if (input.description !== undefined && set('description', 'description', input.description)) notes.push(texts.DESCRIPTION_CHANGED);
      // Once an issue exists, only Planner and above may change its confidentiality (GitLab's set_confidentiality).
      if (metadata && input.confidential !== undefined && input.confidential !== null && set('confidential', 'confidential', input.confidential)) {
        notes.push(texts.confidentialityNote(input.confidential));
      }
      if (
        metadata &&
        input.discussion_locked !== undefined &&
        input.discussion_locked !== null &&
        set('discussionLocked', 'discussion_locked', input.discussion_locked)
      ) {
        notes.push(texts.discussionLockNote(input.discussion_locked));
      }
      if (metadata && input.due_date !== undefined && set('dueDate', 'due_date', input.due_date || null)) notes.push(texts.dueDateNote(input.due_date || null));
      if (owner && input.created_at) set('createdAt', 'created_at', input.created_at);

      let milestone: Milestone | null | undefined;
      if (metadata && input.milestone_id !== undefined) {
        milestone = input.milestone_id ? await milestoneFor(projectId, input.milestone_id) : null;
        // GitLab ignores a milestone the project may not use, and `0`/null removes it.
        if ((milestone || !input.milestone_id) && set('milestoneId', 'milestone_id', milestone?.id ?? null))
          notes.push(texts.milestoneChangeNote(milestone ?? null));
      }
      if (metadata && input.iteration_id !== undefined) {
        const iterationId = input.iteration_id ? await iterationIdFor(projectId, input.iteration_id) : null;
        if ((iterationId || !input.iteration_id) && set('iterationId', 'iteration_id', iterationId))
          notes.push(texts.iterationNote(iterationId, issue.iterationId ?? null));
      }

      let assigneeIds: number[] | undefined;
      const requestedAssignees = metadata ? assigneeIdsOf(input) : undefined;
      const currentAssignees = (await store.assigneesOf([issue.id])).get(issue.id) ?? [];
      if (requestedAssignees !== undefined) {
        const assignees = await assignable(projectId, requestedAssignees);
        const ids = assignees.map((a) => a.id);
        if (!sameIds(ids, currentAssignees)) {
          assigneeIds = ids;
          changed.assignees = { previous: currentAssignees, current: ids };
          const removed = await Promise.all(currentAssignees.filter((id) => !ids.includes(id)).map((id) => deps.users.findById(id)));
          const body = texts.assigneesChangeNote(
            assignees.filter((a) => !currentAssignees.includes(a.id)).map((a) => a.username),
            removed.flatMap((u) => (u ? [u.username] : [])),
          );
          if (body) notes.push(body);
        }
      }

      let addLabelIds: number[] = [];
      let removeLabelIds: number[] = [];
      if (metadata && (input.labels !== undefined || input.add_labels !== undefined || input.remove_labels !== undefined)) {
        const current = (await store.labelsOf([issue.id])).get(issue.id) ?? [];
        let wanted = new Set(current);
        if (input.labels !== undefined) {
          const titles = input.labels ?? [];
          wanted = new Set(titles.length > 0 ? (await deps.labels.forProject(projectId, titles, { create: { userId: user.id } })).map((l) => l.id) : []);
        }
        if (input.add_labels?.length)
          for (const label of await deps.labels.forProject(projectId, input.add_labels, { create: { userId: user.id } })) wanted.add(label.id);
        if (input.remove_labels?.length) for (const label of await deps.labels.forProject(projectId, input.remove_labels)) wanted.delete(label.id);
        addLabelIds = [...wanted].filter((id) => !current.includes(id));
        removeLabelIds = current.filter((id) => !wanted.has(id));
        if (addLabelIds.length + removeLabelIds.length > 0) {
          changed.labels = { previous: current, current: [...wanted] };
          notes.push(texts.labelsChangeNote(addLabelIds, removeLabelIds) ?? '');
        }
      }

      const now = new Date();
      let stateChange: 'closed' | 'reopened' | null = null;
      if (input.state_event === 'close' && issue.state === 'opened') {
        stateChange = 'closed';
        Object.assign(changes, { state: 'closed', closedAt: now, closedById: user.id });
      } else if (input.state_event === 'reopen' && issue.state === 'closed') {
        stateChange = 'reopened';
        Object.assign(changes, { state: 'opened', closedAt: null, closedById: null });
      }

      const anything = Object.keys(changes).length > 0 || assigneeIds !== undefined || addLabelIds.length + removeLabelIds.length > 0;
      if (!anything) return issue;
      const updatedAt = owner && input.updated_at ? input.updated_at : now;
      Object.assign(changes, { updatedAt, updatedById: user.id });
      if (Object.keys(changed).length > 0) changed.updated_at = { previous: issue.updatedAt.toISOString(), current: updatedAt.toISOString() };

      const updated = await store.update(issue, changes, { assigneeIds, addLabelIds, removeLabelIds }, async (tx, stored) => {
        for (const body of notes) await note(tx, stored, user.id, body);
        if (stateChange) await note(tx, stored, user.id, texts.stateChangeNote(stateChange));
        if (changes.milestoneId !== undefined) {
          await deps.milestoneEvents.record({
            resourceType: 'Issue',
            resourceId: issue.id,
            projectId,
            userId: user.id,
            from: issue.milestoneId ?? null,
            to: changes.milestoneId ?? null,
            state: stored.state,
            tx,
          });
        }
      });

      const event = { issueId: issue.id, projectId, userId: user.id };
      if (Object.keys(changed).length > 0) await deps.events.emit(issueEvents.updated, { ...event, changes: changed });
      if (stateChange === 'closed') await deps.events.emit(issueEvents.closed, event);
      if (stateChange === 'reopened') await deps.events.emit(issueEvents.reopened, event);
      return updated;
    },

    /**
     * Deleting needs an admin, the project's owner or a Planner (GitLab 17.7 and later gives
     * Planners `destroy_issue`; Reporters to Maintainers still may not); `404 Issue Not Found`
     * first, as GitLab looks it up before authorizing.
     */
    async remove(user: Principal, projectAccess: ProjectAccess, iid: string, ifUnmodifiedSince: string | undefined): Promise<void> {
      const issue = /^\d+$/.test(iid) ? await store.findByIid(projectAccess.project.id, Number(iid)) : undefined;
      if (!issue) throw notFound('Issue');
      if (!(user.isAdmin || projectAccess.level >= AccessLevel.OWNER || projectAccess.level === AccessLevel.PLANNER)) throw forbidden();
      checkUnmodifiedSince(ifUnmodifiedSince, issue.updatedAt);
      await removeIssue(issue);
      await deps.events.emit(issueEvents.deleted, { issueId: issue.id, projectId: issue.projectId, userId: user.id, iid: issue.iid });
    },

    /** A hard-deleted user's issues go with them, as GitLab's `hard_delete` does. */
    async removeAllOfAuthor(userId: number): Promise<void> {
      for (const issue of await store.authoredBy(userId)) {
        await removeIssue(issue);
        await deps.events.emit(issueEvents.deleted, { issueId: issue.id, projectId: issue.projectId, userId, iid: issue.iid });
      }
    },

    async removeAllOfProject(projectId: number): Promise<void> {
      for (const id of await store.removeAllOfProject(projectId)) {
        await deps.milestoneEvents.removeAllFor('Issue', id);
      }
    },

    toContract,
  };

  async function removeIssue(issue: IssueRow) {
    await store.remove(issue.id);
    await deps.notes.removeAllFor('Issue', issue.id);
    await deps.milestoneEvents.removeAllFor('Issue', issue.id);
  }
}

/** The contract's view of a stored issue. */
export function toContract(issue: IssueRow): Issue {
  return {
    id: issue.id,
    iid: issue.iid,
    projectId: issue.projectId,
    title: issue.title,
    description: issue.description ?? null,
    state: issue.state,
    confidential: issue.confidential,
    authorId: issue.authorId,
    milestoneId: issue.milestoneId ?? null,
    iterationId: issue.iterationId ?? null,
    dueDate: issue.dueDate ?? null,
    closedAt: issue.closedAt ?? null,
    closedById: issue.closedById ?? null,
    createdAt: issue.createdAt,
    updatedAt: issue.updatedAt,
  };
}

/** A contract issue back as a row, for the presenter. */
export function fromContract(issue: Issue): PresentedIssueRow {
  return { ...issue, discussionLocked: null, updatedById: null };
}

export type IssueService = ReturnType<typeof createIssueService>;
