/** GitLab's merge request rules: who may do what, branch checks from git, what a create, update or merge changes, the notes and events it leaves. */
import {
  apiError,
  checkUnmodifiedSince,
  forbidden,
  longerThan,
  methodNotAllowed,
  recordNotFound,
  tooLongMessage,
  unauthorized,
  unprocessable,
  validationFailed,
  type EventBus,
  type Principal,
  type Transaction,
} from '@forgekit/kernel';
import { AccessLevel, type AccessService, type ProjectAccess, type ProjectService, type UserService } from '@forgekit/plugin-core/contracts';
import type { LabelsService } from '@forgekit/plugin-labels/contracts';
import type { MilestoneEventsService } from '@forgekit/plugin-milestone-events/contracts';
import type { MilestonesService } from '@forgekit/plugin-milestones/contracts';
import type { NotesService } from '@forgekit/plugin-notes/contracts';
import {
  RepositoryError,
  type BranchProtection,
  type Pusher,
  type RepositoryHandle,
  type RepositoryReads,
  type RepositoryWrites,
} from '@forgekit/plugin-repositories/contracts';
import { mergeRequestEvents } from '../contracts.js';
import type { MergeRequestRow } from '../entities/merge-request.js';
import type { MergeMethod, MergeRequestGit } from './mr-git.js';
import type { CreateInput, MergeInput, UpdateInput } from './mr-params.js';
import type { MergeRequestStore, NewMergeRequest, RelationChanges } from './mr-store.js';

/** GitLab's MergeRequest model limits. */
const TITLE_MAX = 255;
const DESCRIPTION_MAX = 1_048_576;

/** GitLab's draft title prefixes (MergeRequest::DRAFT_REGEX). */
const DRAFT_PREFIX = /^\s*(\[draft\]|\(draft\)|draft:|draft\s-\s|draft\s)+\s*/i;
export const isDraftTitle = (title: string) => DRAFT_PREFIX.test(title);

export interface MergeRequestServiceDeps {
  store: MergeRequestStore;
  git: MergeRequestGit;
  access: AccessService;
  users: UserService;
  projects: ProjectService;
  labels: LabelsService;
  milestones: MilestonesService;
  milestoneEvents: MilestoneEventsService;
  notes: NotesService;
  reads: RepositoryReads;
  writes: RepositoryWrites;
  protection: BranchProtection;
  events: EventBus;
}

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, index) => id === b[index]);

export function createMergeRequestService(deps: MergeRequestServiceDeps) {
  const { store, access } = deps;

  const repositoryOf = (projectId: number) => deps.reads.find({ kind: 'project', containerId: projectId });
  const mergeMethodOf = (projectAccess: ProjectAccess) => deps.projects.settingsOf(projectAccess.project).merge_method as MergeMethod;

  function validate(fields: { title?: string | null; description?: string | null }) {
    const errors: Record<string, string[]> = {};
    if (fields.title !== undefined) {
      if (fields.title === null || fields.title.trim() === '') errors.title = ["can't be blank"];
      else if (longerThan(fields.title, TITLE_MAX)) errors.title = [tooLongMessage(TITLE_MAX)];
    }
    if (fields.description && longerThan(fields.description, DESCRIPTION_MAX)) errors.description = [tooLongMessage(DESCRIPTION_MAX)];
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
  }

  /** Users GitLab keeps as assignees or reviewers: active and able to read the project, in the order given. */
  const eligible = async (projectId: number, ids: readonly number[]): Promise<number[]> =>
    (await access.activeReadersOf(projectId, ids)).map((user) => user.id);

  const assigneeIdsOf = (input: { assignee_ids?: number[] | null; assignee_id?: number | null }) =>
    input.assignee_ids !== undefined
      ? (input.assignee_ids ?? [])
      : input.assignee_id !== undefined
        ? input.assignee_id
          ? [input.assignee_id]
          : []
        : undefined;

  /** GitLab's branch checks of the build service (422, `base` errors) and the model's duplicate check (409). */
  async function checkBranches(repository: RepositoryHandle | null, projectId: number, source: string, target: string, exceptId?: number) {
    const errors: string[] = [];
    if (source === target) errors.push('You must select different branches');
    if (!repository || !(await deps.reads.branchHead(repository, source))) errors.push(`Source branch "${source}" does not exist`);
    if (!repository || !(await deps.reads.branchHead(repository, target))) errors.push(`Target branch "${target}" does not exist`);
    if (errors.length > 0) throw unprocessable(errors);
    const other = await store.openFor(projectId, source, target, exceptId);
    if (other) throw apiError(409, [`Another open merge request already exists for this source branch: !${other.iid}`]);
  }

  const note = (tx: Transaction, mr: MergeRequestRow, authorId: number, body: string) =>
    deps.notes.recordSystemNote({ noteableType: 'MergeRequest', noteableId: mr.id, noteableIid: mr.iid, projectId: mr.projectId, authorId, body, tx });

  const recordMilestone = (tx: Transaction, mr: MergeRequestRow, userId: number, from: number | null, to: number | null) =>
    deps.milestoneEvents.record({ resourceType: 'MergeRequest', resourceId: mr.id, projectId: mr.projectId, userId, from, to, state: mr.state, tx });

  /** The labels that titles name in a project, created when missing (GitLab's find-or-create for API callers). */
  async function labelIds(projectId: number, titles: readonly string[], userId: number) {
    if (titles.length === 0) return [];
    return [...new Set((await deps.labels.forProject(projectId, titles, { create: { userId } })).map((label) => label.id))];
  }

  async function find(projectAccess: ProjectAccess, iid: string): Promise<MergeRequestRow> {
    const number = /^\d+$/.test(iid) ? Number(iid) : Number.NaN;
    const mr = Number.isSafeInteger(number) ? await store.findByIid(projectAccess.project.id, number) : undefined;
    if (!mr) throw recordNotFound();
    return mr;
  }

  return {
    find,
    repositoryOf,
    mergeMethodOf,

    async create(user: Principal, projectAccess: ProjectAccess, input: CreateInput): Promise<MergeRequestRow> {
      const projectId = projectAccess.project.id;
      if (input.target_project_id != null && input.target_project_id !== projectId) throw unprocessable(['Source project is not a fork of the target project']);
      validate({ title: input.title, description: input.description });
      const repository = await repositoryOf(projectId);
      await checkBranches(repository, projectId, input.source_branch, input.target_branch);
      const metadata = projectAccess.level >= AccessLevel.DEVELOPER || user.isAdmin;
      const assigneeIds = metadata ? await eligible(projectId, assigneeIdsOf(input) ?? []) : [];
      const reviewerIds = metadata ? await eligible(projectId, input.reviewer_ids ?? []) : [];
      const labels = metadata ? await labelIds(projectId, [...(input.labels ?? []), ...(input.add_labels ?? [])], user.id) : [];
      const milestone = metadata && input.milestone_id ? await deps.milestones.forProject(projectId, input.milestone_id) : null;
      const now = new Date();
      const row: NewMergeRequest = {
        projectId,
        title: input.title,
        description: input.description ?? null,
        state: 'opened',
        draft: isDraftTitle(input.title),
        sourceBranch: input.source_branch,
        targetBranch: input.target_branch,
        authorId: user.id,
        milestoneId: milestone?.id ?? null,
        discussionLocked: null,
        squash: input.squash ?? false,
        forceRemoveSourceBranch: input.remove_source_branch ?? false,
        headSha: null,
        baseSha: null,
        startSha: null,
        mergeCommitSha: null,
        squashCommitSha: null,
        mergedById: null,
        mergedAt: null,
        closedById: null,
        closedAt: null,
        createdAt: now,
        updatedAt: now,
      };
      const refs = await deps.git.refs(repository, row);
      const mr = await store.insert(row, { assigneeIds, reviewerIds, labelIds: labels }, async (tx, stored) => {
        if (refs.head_sha) await store.addVersion(tx, stored.id, { head: refs.head_sha, base: refs.base_sha, start: refs.start_sha });
        if (milestone) await recordMilestone(tx, stored, user.id, null, milestone.id);
      });
      await deps.events.emit(mergeRequestEvents.opened, { mergeRequestId: mr.id, projectId, userId: user.id });
      return mr;
    },

    /** GitLab's update_merge_request: Developers and up, and the author. */
    canUpdate: (user: Principal, projectAccess: ProjectAccess, mr: MergeRequestRow) =>
      user.isAdmin || projectAccess.level >= AccessLevel.DEVELOPER || mr.authorId === user.id,

    async update(user: Principal, projectAccess: ProjectAccess, mr: MergeRequestRow, input: UpdateInput): Promise<MergeRequestRow> {
      validate({ title: input.title, description: input.description });
      const projectId = projectAccess.project.id;
      const metadata = projectAccess.level >= AccessLevel.DEVELOPER || user.isAdmin;
      const changes: Partial<NewMergeRequest> = {};
      const changed: Record<string, { previous: unknown; current: unknown }> = {};
      const notes: string[] = [];
      const set = <K extends keyof NewMergeRequest>(key: K, wire: string, value: NewMergeRequest[K]) => {
        if (mr[key] === value) return false;
        changes[key] = value;
        changed[wire] = { previous: mr[key], current: value };
        return true;
      };

      if (input.title != null && set('title', 'title', input.title)) {
        const draft = isDraftTitle(input.title);
        if (set('draft', 'draft', draft)) notes.push(draft ? 'marked this merge request as **draft**' : 'marked this merge request as **ready**');
      }
      if (input.description !== undefined) set('description', 'description', input.description);
      if (input.target_branch != null && input.target_branch !== mr.targetBranch) {
        if (mr.state === 'opened') await checkBranches(await repositoryOf(projectId), projectId, mr.sourceBranch, input.target_branch, mr.id);
        set('targetBranch', 'target_branch', input.target_branch);
        notes.push(`changed target branch from \`${mr.targetBranch}\` to \`${input.target_branch}\``);
      }
      if (input.squash != null) set('squash', 'squash', input.squash);
      if (input.remove_source_branch != null) set('forceRemoveSourceBranch', 'force_remove_source_branch', input.remove_source_branch);
      if (metadata && input.discussion_locked != null && set('discussionLocked', 'discussion_locked', input.discussion_locked)) {
        notes.push(input.discussion_locked ? 'locked the discussion in this merge request' : 'unlocked the discussion in this merge request');
      }

      let milestoneChanged = false;
      if (metadata && input.milestone_id !== undefined) {
        const milestone = input.milestone_id ? await deps.milestones.forProject(projectId, input.milestone_id) : null;
        if ((milestone || !input.milestone_id) && set('milestoneId', 'milestone_id', milestone?.id ?? null)) milestoneChanged = true;
      }

      const relations: RelationChanges = {};
      const current = await store.relationsOf([mr.id]);
      const requestedAssignees = metadata ? assigneeIdsOf(input) : undefined;
      if (requestedAssignees !== undefined) {
        const ids = await eligible(projectId, requestedAssignees);
        const before = current.assignees.get(mr.id) ?? [];
        if (!sameIds(ids, before)) {
          relations.assigneeIds = ids;
          changed.assignees = { previous: before, current: ids };
        }
      }
      if (metadata && input.reviewer_ids !== undefined) {
        const ids = await eligible(projectId, input.reviewer_ids ?? []);
        const before = current.reviewers.get(mr.id) ?? [];
        if (!sameIds(ids, before)) {
          relations.reviewerIds = ids;
          changed.reviewers = { previous: before, current: ids };
        }
      }
      if (metadata && (input.labels !== undefined || input.add_labels !== undefined || input.remove_labels !== undefined)) {
        const before = current.labels.get(mr.id) ?? [];
        const wanted = new Set(input.labels !== undefined ? await labelIds(projectId, input.labels ?? [], user.id) : before);
        for (const id of await labelIds(projectId, input.add_labels ?? [], user.id)) wanted.add(id);
        if (input.remove_labels?.length) for (const label of await deps.labels.forProject(projectId, input.remove_labels)) wanted.delete(label.id);
        const ids = [...wanted];
        if (!sameIds([...ids].sort(), [...before].sort())) {
          relations.labelIds = ids;
          changed.labels = { previous: before, current: ids };
        }
      }

      const now = new Date();
      let stateChange: 'closed' | 'reopened' | null = null;
      if (input.state_event === 'close' && mr.state === 'opened') {
        stateChange = 'closed';
        const refs = await deps.git.refs(await repositoryOf(projectId), mr);
        Object.assign(changes, {
          state: 'closed',
          closedAt: now,
          closedById: user.id,
          headSha: refs.head_sha,
          baseSha: refs.base_sha,
          startSha: refs.start_sha,
        });
      } else if (input.state_event === 'reopen' && mr.state === 'closed') {
        await checkBranches(await repositoryOf(projectId), projectId, mr.sourceBranch, changes.targetBranch ?? mr.targetBranch, mr.id);
        stateChange = 'reopened';
        Object.assign(changes, { state: 'opened', closedAt: null, closedById: null });
      }

      if (Object.keys(changes).length === 0 && Object.keys(relations).length === 0) return mr;
      changes.updatedAt = now;
      if (Object.keys(changed).length > 0) changed.updated_at = { previous: mr.updatedAt.toISOString(), current: now.toISOString() };
      const updated = await store.update(mr, changes, relations, async (tx, stored) => {
        for (const body of notes) await note(tx, stored, user.id, body);
        if (stateChange) await note(tx, stored, user.id, stateChange);
        if (milestoneChanged) await recordMilestone(tx, stored, user.id, mr.milestoneId ?? null, stored.milestoneId ?? null);
      });
      const event = { mergeRequestId: mr.id, projectId, userId: user.id };
      if (Object.keys(changed).length > 0) await deps.events.emit(mergeRequestEvents.updated, { ...event, changes: changed });
      if (stateChange === 'closed') await deps.events.emit(mergeRequestEvents.closed, event);
      if (stateChange === 'reopened') await deps.events.emit(mergeRequestEvents.reopened, event);
      return updated;
    },

    /** Only the project's owners (and admins) delete merge requests. */
    async remove(user: Principal, projectAccess: ProjectAccess, iid: string, ifUnmodifiedSince: string | undefined): Promise<void> {
      const mr = await find(projectAccess, iid);
      if (!(user.isAdmin || projectAccess.level >= AccessLevel.OWNER)) throw forbidden();
      checkUnmodifiedSince(ifUnmodifiedSince, mr.updatedAt);
      await store.remove(mr.id);
      await deps.notes.removeAllFor('MergeRequest', mr.id);
      await deps.milestoneEvents.removeAllFor('MergeRequest', mr.id);
      await deps.events.emit(mergeRequestEvents.deleted, { mergeRequestId: mr.id, projectId: mr.projectId, userId: user.id, iid: mr.iid });
    },

    /**
     * `PUT .../merge`: 401 for callers who may not merge into the target branch, 405 when the
     * merge request cannot be merged now, 409 when `sha` is not the source head, 422 when git
     * refuses (the target moved meanwhile); else a merge commit or fast-forward on the target.
     */
    /** Whether the user may merge it into its target branch and git finds it mergeable now (GitLab's condition for `/merge`). */
    async mergeableBy(user: Principal, projectAccess: ProjectAccess, mr: MergeRequestRow): Promise<boolean> {
      if (!(await deps.protection.canMerge(user, projectAccess.project, mr.targetBranch))) return false;
      const repository = await repositoryOf(mr.projectId);
      const state = await deps.git.mergeState(repository, mr, await deps.git.refs(repository, mr), mergeMethodOf(projectAccess));
      return state.detailed === 'mergeable' && repository !== null;
    },

    async merge(user: Principal, projectAccess: ProjectAccess, mr: MergeRequestRow, input: MergeInput, pusher: Pusher): Promise<MergeRequestRow> {
      if (!(await deps.protection.canMerge(user, projectAccess.project, mr.targetBranch))) throw unauthorized();
      const repository = await repositoryOf(mr.projectId);
      const method = mergeMethodOf(projectAccess);
      const refs = await deps.git.refs(repository, mr);
      const state = await deps.git.mergeState(repository, mr, refs, method);
      if (state.detailed !== 'mergeable' || !repository) throw methodNotAllowed();
      if (input.sha != null && input.sha !== refs.head_sha) throw apiError(409, `SHA does not match HEAD of source branch: ${refs.head_sha}`);
      const project = projectAccess.project;
      const reference = `${project.namespace.fullPath}/${project.path}!${mr.iid}`;
      const message =
        input.merge_commit_message ||
        [`Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'`, mr.title, mr.description?.trim() || null, `See merge request ${reference}`]
          .filter((part) => part)
          .join('\n\n');
      const squash = input.squash ?? mr.squash;
      let result: { commit: string; squashCommit: string | null };
      try {
        const merged = await deps.writes.mergeInto(
          repository,
          mr.targetBranch,
          {
            targetHead: refs.start_sha!,
            source: refs.head_sha!,
            fastForward: method === 'ff' ? 'only' : 'never',
            message,
            squashMessage: squash ? input.squash_commit_message || mr.title : null,
            author: pusher,
            committer: pusher,
          },
          pusher,
        );
        result = merged;
      } catch (error) {
        if (error instanceof RepositoryError) throw unprocessable('Branch cannot be merged');
        throw error;
      }
      const now = new Date();
      const stored = await store.markMerged(
        mr,
        {
          mergedById: user.id,
          mergedAt: now,
          // A fast-forward makes no merge commit: GitLab leaves merge_commit_sha empty then.
          mergeCommitSha: result.commit === refs.head_sha || result.commit === result.squashCommit ? null : result.commit,
          squashCommitSha: result.squashCommit,
          squash,
          headSha: refs.head_sha,
          baseSha: refs.base_sha,
          startSha: refs.start_sha,
          updatedAt: now,
          forceRemoveSourceBranch: input.should_remove_source_branch ?? mr.forceRemoveSourceBranch,
        },
        (tx, merged) => note(tx, merged, user.id, `merged`),
      );
      if (!stored) throw methodNotAllowed();
      if (stored.forceRemoveSourceBranch && (await deps.protection.canDelete(user, project, mr.sourceBranch))) {
        await deps.writes.deleteBranch(repository, mr.sourceBranch, pusher).catch((error: unknown) => {
          if (!(error instanceof RepositoryError)) throw error;
        });
      }
      await deps.events.emit(mergeRequestEvents.merged, { mergeRequestId: mr.id, projectId: mr.projectId, userId: user.id, mergeCommitSha: result.commit });
      return stored;
    },

    async removeAllOfProject(projectId: number): Promise<void> {
      for (const id of await store.removeAllOfProject(projectId)) {
        await deps.notes.removeAllFor('MergeRequest', id);
        await deps.milestoneEvents.removeAllFor('MergeRequest', id);
      }
    },
  };
}

export type MergeRequestService = ReturnType<typeof createMergeRequestService>;
