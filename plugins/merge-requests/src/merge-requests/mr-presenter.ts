/**
 * GitLab's MergeRequestBasic (lists), MergeRequest (single) and MergeRequestSimple (`view=simple`)
 * entities, for a page at once: users, labels, milestones and note counts are looked up in one batch each.
 */
import { relinkWebUrl } from '@forgekit/kernel';
import { taskCompletion } from '@forgekit/markdown';
import { type ProjectService, type UserService, userBasic } from '@forgekit/plugin-core/contracts';
import type { Label, LabelsService } from '@forgekit/plugin-labels/contracts';
import type { Milestone, MilestonesService } from '@forgekit/plugin-milestones/contracts';
import type { NotesService } from '@forgekit/plugin-notes/contracts';
import type { RepositoryReads } from '@forgekit/plugin-repositories/contracts';
import type { MergeRequestRow } from '../entities/merge-request.js';
import type { DiffRefs, MergeMethod, MergeRequestGit, MergeState } from './mr-git.js';
import type { MergeRequestStore } from './mr-store.js';

export interface PresenterDeps {
  store: MergeRequestStore;
  git: MergeRequestGit;
  reads: RepositoryReads;
  users: UserService;
  projects: ProjectService;
  labels: LabelsService;
  milestones: MilestonesService;
  notes: NotesService;
}

export interface PresentOptions {
  externalUrl: string;
  relink?: (url: string) => string;
  /** The full `MergeRequest` entity (single, create, update, merge) rather than `MergeRequestBasic`. */
  full: boolean;
  simple?: boolean;
  withLabelsDetails: boolean;
  /** For `changes_count` and `user.can_merge` on the full entity. */
  changesCount?: (mr: MergeRequestRow, refs: DiffRefs) => Promise<number>;
  canMerge?: (mr: MergeRequestRow) => Promise<boolean>;
}

const byId = <T extends { id: number }>(items: readonly T[]) => new Map(items.map((item) => [item.id, item]));
const unique = (ids: Iterable<number | null | undefined>) => [...new Set([...ids].filter((id): id is number => typeof id === 'number'))];

export function createMergeRequestPresenter(deps: PresenterDeps) {
  async function usersById(ids: readonly number[]) {
    return byId(ids.length > 0 ? await deps.users.findByIds(ids) : []);
  }

  /** Each project looked up once: its path, merge method and repository. */
  async function projectsOf(mrs: readonly MergeRequestRow[]) {
    const entries = await Promise.all(
      unique(mrs.map((mr) => mr.projectId)).map(async (id) => {
        const project = await deps.projects.findById(id);
        const repository = await deps.reads.find({ kind: 'project', containerId: id });
        const method = (project ? deps.projects.settingsOf(project).merge_method : 'merge') as MergeMethod;
        return [id, { path: project ? `${project.namespace.fullPath}/${project.path}` : '', repository, method }] as const;
      }),
    );
    return new Map(entries);
  }

  return async function present(mrs: readonly MergeRequestRow[], options: PresentOptions): Promise<Record<string, unknown>[]> {
    if (mrs.length === 0) return [];
    const projects = await projectsOf(mrs);
    const webUrl = (mr: MergeRequestRow) => `${options.externalUrl}/${projects.get(mr.projectId)?.path}/-/merge_requests/${mr.iid}`;
    if (options.simple) {
      return mrs.map((mr) => ({
        id: mr.id,
        iid: mr.iid,
        project_id: mr.projectId,
        title: mr.title,
        description: mr.description ?? null,
        state: mr.state,
        created_at: mr.createdAt.toISOString(),
        updated_at: mr.updatedAt.toISOString(),
        web_url: webUrl(mr),
      }));
    }
    const ids = mrs.map((mr) => mr.id);
    const [relations, noteCounts, votes] = await Promise.all([
      deps.store.relationsOf(ids),
      deps.notes.userNoteCounts('MergeRequest', ids),
      deps.notes.awardVotes('MergeRequest', ids),
    ]);
    const userIds = unique(
      mrs.flatMap((mr) => [mr.authorId, mr.closedById, mr.mergedById, ...(relations.assignees.get(mr.id) ?? []), ...(relations.reviewers.get(mr.id) ?? [])]),
    );
    const labelIds = unique([...relations.labels.values()].flat());
    const milestoneIds = unique(mrs.map((mr) => mr.milestoneId));
    const paths = new Map([...projects].map(([id, project]) => [id, project.path]));
    const pageRefs = deps.git.pageRefs();
    const [users, labels, milestones, git] = await Promise.all([
      usersById(userIds),
      labelIds.length > 0 ? deps.labels.byIds(labelIds).then(byId) : new Map<number, Label>(),
      milestoneIds.length > 0 ? deps.milestones.byIds(milestoneIds, { projectPaths: paths }).then(byId) : new Map<number, Milestone>(),
      Promise.all(
        mrs.map(async (mr) => {
          const project = projects.get(mr.projectId)!;
          const refs = await pageRefs(project.repository, mr);
          const state: MergeState = await deps.git.mergeState(project.repository, mr, refs, project.method);
          return { refs, state };
        }),
      ),
    ]);

    const user = (id: number | null | undefined) => {
      const found = typeof id === 'number' ? users.get(id) : undefined;
      return found ? userBasic(found, options.externalUrl) : null;
    };
    const relinked = <T extends { web_url?: unknown }>(entity: T) => (options.relink ? relinkWebUrl({ relink: options.relink }, entity) : entity);

    return Promise.all(
      mrs.map(async (mr, index) => {
        const { refs, state } = git[index]!;
        const projectPath = projects.get(mr.projectId)?.path ?? '';
        const mrLabels = (relations.labels.get(mr.id) ?? []).flatMap((id) => labels.get(id) ?? []);
        const assignees = (relations.assignees.get(mr.id) ?? []).flatMap((id) => user(id) ?? []);
        const reviewers = (relations.reviewers.get(mr.id) ?? []).flatMap((id) => user(id) ?? []);
        const milestone = typeof mr.milestoneId === 'number' ? milestones.get(mr.milestoneId) : undefined;
        const mergedBy = user(mr.mergedById);
        const body: Record<string, unknown> = {
          id: mr.id,
          iid: mr.iid,
          project_id: mr.projectId,
          title: mr.title,
          description: mr.description ?? null,
          state: mr.state,
          created_at: mr.createdAt.toISOString(),
          updated_at: mr.updatedAt.toISOString(),
          merged_by: mergedBy,
          merge_user: mergedBy,
          merged_at: mr.mergedAt?.toISOString() ?? null,
          merge_after: null,
          closed_by: user(mr.closedById),
          closed_at: mr.closedAt?.toISOString() ?? null,
          target_branch: mr.targetBranch,
          source_branch: mr.sourceBranch,
          user_notes_count: noteCounts.get(mr.id) ?? 0,
          upvotes: votes.get(mr.id)?.upvotes ?? 0,
          downvotes: votes.get(mr.id)?.downvotes ?? 0,
          author: user(mr.authorId),
          assignees,
          assignee: assignees[0] ?? null,
          reviewers,
          source_project_id: mr.projectId,
          target_project_id: mr.projectId,
          labels: options.withLabelsDetails ? deps.labels.present(mrLabels, true) : deps.labels.present(mrLabels, false),
          draft: mr.draft,
          work_in_progress: mr.draft,
          imported: false,
          imported_from: 'none',
          milestone: milestone ? relinked(deps.milestones.entity(milestone)) : null,
          merge_when_pipeline_succeeds: false,
          merge_status: state.legacy,
          detailed_merge_status: state.detailed,
          sha: refs.head_sha,
          merge_commit_sha: mr.mergeCommitSha ?? null,
          squash_commit_sha: mr.squashCommitSha ?? null,
          discussion_locked: mr.discussionLocked ?? null,
          should_remove_source_branch: null,
          force_remove_source_branch: mr.forceRemoveSourceBranch,
          prepared_at: mr.createdAt.toISOString(),
          reference: `!${mr.iid}`,
          references: { short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `${projectPath}!${mr.iid}` },
          web_url: webUrl(mr),
          time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
          squash: mr.squash,
          squash_on_merge: mr.squash,
          task_completion_status: taskCompletion(mr.description ?? null),
          has_conflicts: state.hasConflicts,
          blocking_discussions_resolved: true,
          approvals_before_merge: null,
        };
        if (!options.full) return body;
        body.subscribed = false;
        body.changes_count = options.changesCount ? String(await options.changesCount(mr, refs)) : null;
        body.latest_build_started_at = null;
        body.latest_build_finished_at = null;
        body.first_deployed_to_production_at = null;
        body.pipeline = null;
        body.head_pipeline = null;
        body.diff_refs = refs;
        body.merge_error = null;
        body.first_contribution = false;
        body.allow_collaboration = false;
        body.allow_maintainer_to_push = false;
        body.user = { can_merge: options.canMerge ? await options.canMerge(mr) : false };
        return body;
      }),
    );
  };
}

export type PresentMergeRequests = ReturnType<typeof createMergeRequestPresenter>;
