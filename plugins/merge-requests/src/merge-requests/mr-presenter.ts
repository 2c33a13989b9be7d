/**
 * GitLab's MergeRequestBasic (lists), MergeRequest (single) and MergeRequestSimple (`view=simple`)
 * entities, for a page at once: users, labels, milestones and note counts are looked up in one batch each.
 */
import { keptUnderMark, PAGES_KEPT, relinkWebUrl, sharedBy, sourceKey, versionKey, type FragmentCache, type JsonText } from '@forgekit/kernel';
import { taskCompletion } from '@forgekit/markdown';
import { type ProjectService, type UserService, userBasic } from '@forgekit/plugin-core/contracts';
import type { Label, LabelsService } from '@forgekit/plugin-labels/contracts';
import type { Milestone, MilestonesService } from '@forgekit/plugin-milestones/contracts';
import type { NotesService } from '@forgekit/plugin-notes/contracts';
import type { RepositoryReads } from '@forgekit/plugin-repositories/contracts';
import type { MergeRequestRow } from '../entities/merge-request.js';
import type { DiffRefs, MergeMethod, MergeRequestGit } from './mr-git.js';
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
  /** The kernel's presented cache: lists keep each merge request's own fields by the row's version. */
  cache?: FragmentCache;
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
  /** Labels this request already read: used when they hold every label of the page. */
  knownLabels?: readonly Label[];
  /** A reading request's change mark (see `requestMark`): a list page's database reads are kept under it. */
  mark?: number;
}

/**
 * The fields of a list item that read other rows (users, labels, milestones, notes, award
 * emoji) or git: filled on each request. The rest reads the merge request's row, its project's
 * path and the external URL alone, and is what the presented cache keeps.
 */
const RELATED_FIELDS = [
  'merged_by',
  'merge_user',
  'closed_by',
  'user_notes_count',
  'upvotes',
  'downvotes',
  'author',
  'assignees',
  'assignee',
  'reviewers',
  'labels',
  'milestone',
  'merge_status',
  'detailed_merge_status',
  'sha',
  'has_conflicts',
] as const;
type Related = Record<(typeof RELATED_FIELDS)[number], unknown>;
/** The related fields that database reads give; git gives the others. */
type ReadFields = Omit<Related, 'merge_status' | 'detailed_merge_status' | 'sha' | 'has_conflicts'>;

const webUrlOf = (mr: MergeRequestRow, projectPath: string, externalUrl: string) => `${externalUrl}/${projectPath}/-/merge_requests/${mr.iid}`;

const byId = <T extends { id: number }>(items: readonly T[]) => new Map(items.map((item) => [item.id, item]));
const unique = (ids: Iterable<number | null | undefined>) => [...new Set([...ids].filter((id): id is number => typeof id === 'number'))];

export function createMergeRequestPresenter(deps: PresenterDeps) {
  async function usersById(ids: readonly number[]) {
    return byId(ids.length > 0 ? await deps.users.findByIds(ids) : []);
  }

  async function labelsById(ids: readonly number[], known: readonly Label[] | undefined): Promise<Map<number, Label>> {
    if (ids.length === 0) return new Map();
    const knownById = known ? byId(known) : undefined;
    if (knownById && ids.every((id) => knownById.has(id))) return knownById;
    return byId(await deps.labels.byIds(ids));
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
  type ProjectsOfPage = Awaited<ReturnType<typeof projectsOf>>;

  /** What a page's related fields read from the database: its merge requests' users, labels, milestones, notes and votes. */
  async function readRelated(mrs: readonly MergeRequestRow[], projects: ProjectsOfPage, knownLabels: readonly Label[] | undefined) {
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
    const [users, labels, milestones] = await Promise.all([
      usersById(userIds),
      labelsById(labelIds, knownLabels),
      milestoneIds.length > 0 ? deps.milestones.byIds(milestoneIds, { projectPaths: paths }).then(byId) : new Map<number, Milestone>(),
    ]);
    return { relations, noteCounts, votes, users, labels, milestones };
  }
  type RelatedReads = Awaited<ReturnType<typeof readRelated>>;

  /** Git's answers for each merge request of a page: its diff refs and merge state. */
  function gitStatesOf(mrs: readonly MergeRequestRow[], projects: ProjectsOfPage) {
    return deps.git.pageStates(
      mrs.map((mr) => {
        const project = projects.get(mr.projectId)!;
        return { repository: project.repository, mr, method: project.method };
      }),
    );
  }

  /**
   * The related fields a page's database reads give (users, labels, milestone, notes, votes),
   * presented. `share`: lists of the same labels, assignees or reviewers and the same milestone
   * are one object across the page (serialised once, see `Fragment.json`); otherwise each merge
   * request gets its own, which its caller may change.
   */
  function presentReads(
    mrs: readonly MergeRequestRow[],
    reads: RelatedReads,
    options: Pick<PresentOptions, 'externalUrl' | 'relink' | 'withLabelsDetails'>,
    share: boolean,
  ): ReadFields[] {
    const { relations, noteCounts, votes, users, labels, milestones } = reads;
    // A page names the same few users again and again: each is presented once.
    const basics = new Map<number, ReturnType<typeof userBasic>>();
    const user = (id: number | null | undefined) => {
      if (typeof id !== 'number') return null;
      let basic = basics.get(id);
      if (!basic) {
        const found = users.get(id);
        if (!found) return null;
        basics.set(id, (basic = userBasic(found, options.externalUrl)));
      }
      return basic;
    };
    const relinked = <T extends { web_url?: unknown }>(entity: T) => (options.relink ? relinkWebUrl({ relink: options.relink }, entity) : entity);

    const presentLabels = (ids: string) => {
      const mrLabels = ids === '' ? [] : ids.split(',').flatMap((id) => labels.get(Number(id)) ?? []);
      return options.withLabelsDetails ? deps.labels.present(mrLabels, true) : deps.labels.present(mrLabels, false);
    };
    const presentUsers = (ids: string) => (ids === '' ? [] : ids.split(',').flatMap((id) => user(Number(id)) ?? []));
    const presentMilestone = (milestone: Milestone) => relinked(deps.milestones.entity(milestone));
    // Label and user lists by their ids, joined: merge requests with the same ones share one list.
    const labelsOf = share ? sharedBy(presentLabels) : presentLabels;
    const usersOf = share ? sharedBy(presentUsers) : presentUsers;
    const milestoneOf = share ? sharedBy(presentMilestone) : presentMilestone;

    return mrs.map((mr): ReadFields => {
      const assignees = usersOf((relations.assignees.get(mr.id) ?? []).join(','));
      const milestone = typeof mr.milestoneId === 'number' ? milestones.get(mr.milestoneId) : undefined;
      const mergedBy = user(mr.mergedById);
      return {
        merged_by: mergedBy,
        merge_user: mergedBy,
        closed_by: user(mr.closedById),
        user_notes_count: noteCounts.get(mr.id) ?? 0,
        upvotes: votes.get(mr.id)?.upvotes ?? 0,
        downvotes: votes.get(mr.id)?.downvotes ?? 0,
        author: user(mr.authorId),
        assignees,
        assignee: assignees[0] ?? null,
        reviewers: usersOf((relations.reviewers.get(mr.id) ?? []).join(',')),
        labels: labelsOf((relations.labels.get(mr.id) ?? []).join(',')),
        milestone: milestone ? milestoneOf(milestone) : null,
      };
    });
  }

  /**
   * A related-fields object: what the database reads gave, and git's answers. Written out
   * field by field: an object spread of a kept object measured many times slower under load.
   */
  const withGit = (fields: ReadFields, { state, refs }: Awaited<ReturnType<typeof gitStatesOf>>[number]): Related => ({
    merged_by: fields.merged_by,
    merge_user: fields.merge_user,
    closed_by: fields.closed_by,
    user_notes_count: fields.user_notes_count,
    upvotes: fields.upvotes,
    downvotes: fields.downvotes,
    author: fields.author,
    assignees: fields.assignees,
    assignee: fields.assignee,
    reviewers: fields.reviewers,
    labels: fields.labels,
    milestone: fields.milestone,
    merge_status: state.legacy,
    detailed_merge_status: state.detailed,
    sha: refs.head_sha,
    has_conflicts: state.hasConflicts,
  });

  /** Each merge request's related fields (users, labels, milestone, notes, git) for a page at once, with its diff refs. */
  async function relatedOf(
    mrs: readonly MergeRequestRow[],
    projects: ProjectsOfPage,
    options: PresentOptions,
  ): Promise<{ related: Related; refs: DiffRefs }[]> {
    const [reads, git] = await Promise.all([readRelated(mrs, projects, options.knownLabels), gitStatesOf(mrs, projects)]);
    const fields = presentReads(mrs, reads, options, false);
    return mrs.map((_, index) => ({ related: withGit(fields[index]!, git[index]!), refs: git[index]!.refs }));
  }

  /**
   * A list page's projects, and its related fields as its database reads give them, presented,
   * kept between reading requests under their change mark: the same merge requests under the
   * same mark read the same rows, since nothing was committed since, by any process. What is
   * kept is only read from. Git's answers are asked for on each request.
   */
  const keptProjects = keptUnderMark<ProjectsOfPage>(PAGES_KEPT);
  const keptReadFields = keptUnderMark<ReadFields[]>(PAGES_KEPT);
  /** The texts of kept related values (a user, a page's labels), for as long as the values are kept. */
  const keptTexts = new WeakMap<object, string>();

  /** The fields every view of a merge request starts with (`view=simple` adds only `web_url`). */
  const leadingFields = (mr: MergeRequestRow) => ({
    id: mr.id,
    iid: mr.iid,
    project_id: mr.projectId,
    title: mr.title,
    description: mr.description ?? null,
    state: mr.state,
    created_at: mr.createdAt.toISOString(),
    updated_at: mr.updatedAt.toISOString(),
  });

  /** `MergeRequestBasic`, with the related fields in their places. */
  function basicBody(mr: MergeRequestRow, related: Related, projectPath: string, externalUrl: string): Record<string, unknown> {
    return {
      ...leadingFields(mr),
      merged_by: related.merged_by,
      merge_user: related.merge_user,
      merged_at: mr.mergedAt?.toISOString() ?? null,
      merge_after: null,
      closed_by: related.closed_by,
      closed_at: mr.closedAt?.toISOString() ?? null,
      target_branch: mr.targetBranch,
      source_branch: mr.sourceBranch,
      user_notes_count: related.user_notes_count,
      upvotes: related.upvotes,
      downvotes: related.downvotes,
      author: related.author,
      assignees: related.assignees,
      assignee: related.assignee,
      reviewers: related.reviewers,
      source_project_id: mr.projectId,
      target_project_id: mr.projectId,
      labels: related.labels,
      draft: mr.draft,
      work_in_progress: mr.draft,
      imported: false,
      imported_from: 'none',
      milestone: related.milestone,
      merge_when_pipeline_succeeds: false,
      merge_status: related.merge_status,
      detailed_merge_status: related.detailed_merge_status,
      sha: related.sha,
      merge_commit_sha: mr.mergeCommitSha ?? null,
      squash_commit_sha: mr.squashCommitSha ?? null,
      discussion_locked: mr.discussionLocked ?? null,
      should_remove_source_branch: null,
      force_remove_source_branch: mr.forceRemoveSourceBranch,
      prepared_at: mr.createdAt.toISOString(),
      reference: `!${mr.iid}`,
      references: { short: `!${mr.iid}`, relative: `!${mr.iid}`, full: `${projectPath}!${mr.iid}` },
      web_url: webUrlOf(mr, projectPath, externalUrl),
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      squash: mr.squash,
      squash_on_merge: mr.squash,
      task_completion_status: taskCompletion(mr.description ?? null),
      has_conflicts: related.has_conflicts,
      blocking_discussions_resolved: true,
      approvals_before_merge: null,
    };
  }

  async function present(mrs: readonly MergeRequestRow[], options: PresentOptions): Promise<Record<string, unknown>[]> {
    if (mrs.length === 0) return [];
    const projects = await projectsOf(mrs);
    const pathOf = (mr: MergeRequestRow) => projects.get(mr.projectId)?.path ?? '';
    if (options.simple) {
      return mrs.map((mr) => ({ ...leadingFields(mr), web_url: webUrlOf(mr, pathOf(mr), options.externalUrl) }));
    }
    const related = await relatedOf(mrs, projects, options);
    return Promise.all(
      mrs.map(async (mr, index) => {
        const { related: fields, refs } = related[index]!;
        const body = basicBody(mr, fields, pathOf(mr), options.externalUrl);
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
  }

  /**
   * `MergeRequestBasic` list items as JSON texts: a merge request's own fields come from the
   * presented cache by the row's version, its project's path and the URL its links are built
   * on; the related fields, git's answers among them, are filled in their places.
   */
  async function presentListJson(mrs: readonly MergeRequestRow[], options: Omit<PresentOptions, 'full'>): Promise<(JsonText | Record<string, unknown>)[]> {
    const { cache } = deps;
    if (!cache?.enabled || options.simple) return present(mrs, { ...options, full: false });
    if (mrs.length === 0) return [];
    const key = mrs.map((mr) => mr.id).join(',');
    const projects = await keptProjects(key, options.mark, () => projectsOf(mrs));
    // Presented values depend on the URL links are built on, and on the label view.
    const fieldsKey = `${key} ${options.externalUrl} ${options.withLabelsDetails} ${options.relink !== undefined}`;
    const [fields, git] = await Promise.all([
      keptReadFields(fieldsKey, options.mark, async () => presentReads(mrs, await readRelated(mrs, projects, options.knownLabels), options, true)),
      gitStatesOf(mrs, projects),
    ]);
    // Values kept under a mark are the same objects on the next request: their texts are kept with them.
    const texts = options.mark === undefined ? new Map<object, string>() : keptTexts;
    return mrs.map((mr, index) => {
      const related = withGit(fields[index]!, git[index]!);
      const projectPath = projects.get(mr.projectId)?.path ?? '';
      const key = versionKey('merge-request-basic', options.externalUrl, projectPath, sourceKey('MergeRequest', mr.id, mr.lockVersion));
      return cache.fragment(key, () => ({ body: basicBody(mr, related, projectPath, options.externalUrl), live: RELATED_FIELDS })).json(related, texts);
    });
  }

  return Object.assign(present, { listJson: presentListJson });
}

export type PresentMergeRequests = ReturnType<typeof createMergeRequestPresenter>;
