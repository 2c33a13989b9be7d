/**
 * GitLab's IssueBasic (lists) and Issue (single) entities, for a page of issues at once:
 * labels, milestones, iterations, users and note counts are looked up in one batch each.
 */
import { relinkWebUrl, sharedBy, sourceKey, versionKey, type Fragment, type FragmentCache, type JsonText } from '@forgekit/kernel';
import { taskCompletion } from '@forgekit/markdown';
import { type ProjectService, type UserService, userBasic } from '@forgekit/plugin-core/contracts';
import type { IterationsService } from '@forgekit/plugin-iterations/contracts';
import type { Label, LabelsService } from '@forgekit/plugin-labels/contracts';
import type { Milestone, MilestonesService } from '@forgekit/plugin-milestones/contracts';
import type { NotesService } from '@forgekit/plugin-notes/contracts';
import type { IssueRow as StoredIssue } from '../entities/issue.js';

/** An issue as presented: a row, or a contract issue turned back into one (without its version, so never cached). */
export type IssueRow = Omit<StoredIssue, 'lockVersion'> & { lockVersion?: number };
import type { IssueKey, IssueStore } from './issue-store.js';

export interface PresenterDeps {
  store: IssueStore;
  users: UserService;
  projects: ProjectService;
  labels: LabelsService;
  milestones: MilestonesService;
  notes: NotesService;
  iterations?: IterationsService;
  /** The kernel's presented cache: lists keep each issue's own fields by the row's version. */
  cache?: FragmentCache;
}

/**
 * The fields of an issue answer that read other rows (users, labels, milestones, iterations,
 * notes, award emoji): filled on each request. The rest reads the issue's row, its project's
 * path and the external URL alone, and is what the presented cache keeps.
 */
const RELATED_FIELDS = [
  'closed_by',
  'labels',
  'milestone',
  'assignees',
  'author',
  'assignee',
  'user_notes_count',
  'upvotes',
  'downvotes',
  'iteration',
] as const;
type Related = Record<(typeof RELATED_FIELDS)[number], unknown>;

export interface PresentOptions {
  externalUrl: string;
  /** Moves links built from the instance's URL (nested milestones and iterations) onto `externalUrl` (a request's `ctx.relink`). */
  relink?: (url: string) => string;
  /** The full `Issue` entity (single issue, create, update) rather than `IssueBasic`. */
  full: boolean;
  withLabelsDetails: boolean;
  /** Project full paths already known (the project of a project route). */
  projectPaths?: ReadonlyMap<number, string>;
}

/** An issue's assignees and labels, by id, each in the order it was added. */
interface IssueLinks {
  assignees: number[];
  labels: number[];
}

/** What a kept issue fragment holds beside its text: the row and links it was presented from (the issue's version covers both). */
interface KeptIssue {
  row: IssueRow;
  links: IssueLinks;
}

const byId = <T extends { id: number }>(items: readonly T[]) => new Map(items.map((item) => [item.id, item]));

const unique = (ids: Iterable<number | null | undefined>) => [...new Set([...ids].filter((id): id is number => typeof id === 'number'))];

export function createIssuePresenter(deps: PresenterDeps) {
  async function usersById(ids: readonly number[]) {
    const found = await Promise.all(ids.map((id) => deps.users.findById(id)));
    return new Map(found.flatMap((user) => (user ? [[user.id, user] as const] : [])));
  }

  async function projectPaths(issues: readonly IssueRow[], known?: ReadonlyMap<number, string>) {
    const paths = new Map(known);
    const missing = unique(issues.map((issue) => issue.projectId)).filter((id) => !paths.has(id));
    const projects = await Promise.all(missing.map((id) => deps.projects.findById(id)));
    for (const project of projects) if (project) paths.set(project.id, `${project.namespace.fullPath}/${project.path}`);
    return paths;
  }

  /**
   * `share`: the related values of the same rows are one object across the page (serialised
   * once, see `Fragment.json`); otherwise each issue gets its own, which its caller may change.
   */
  async function presentEach<T>(
    issues: readonly IssueRow[],
    options: PresentOptions,
    finish: (issue: IssueRow, related: Related, body: () => Record<string, unknown>, projectPath: string, links: IssueLinks) => T,
    share = false,
    known?: { paths: ReadonlyMap<number, string>; links: ReadonlyMap<number, IssueLinks> },
  ): Promise<T[]> {
    if (issues.length === 0) return [];
    const issueIds = issues.map((issue) => issue.id);
    const unlinked = known ? issueIds.filter((id) => !known.links.has(id)) : issueIds;
    const [{ assignees, labels: labelLinks }, paths, noteCounts, votes] = await Promise.all([
      deps.store.relationsOf(unlinked),
      known?.paths ?? projectPaths(issues, options.projectPaths),
      deps.notes.userNoteCounts('Issue', issueIds),
      deps.notes.awardVotes('Issue', issueIds),
    ]);
    for (const [id, links] of known?.links ?? []) {
      assignees.set(id, links.assignees);
      labelLinks.set(id, links.labels);
    }
    const userIds = unique(issues.flatMap((issue) => [issue.authorId, issue.closedById, ...(assignees.get(issue.id) ?? [])]));
    const labelIds = unique([...labelLinks.values()].flat());
    const milestoneIds = unique(issues.map((issue) => issue.milestoneId));
    const iterationIds = deps.iterations ? unique(issues.map((issue) => issue.iterationId)) : [];
    const [users, labels, milestones, iterations] = await Promise.all([
      usersById(userIds),
      labelIds.length > 0 ? deps.labels.byIds(labelIds).then(byId) : new Map<number, Label>(),
      milestoneIds.length > 0 ? deps.milestones.byIds(milestoneIds, { projectPaths: paths }).then(byId) : new Map<number, Milestone>(),
      iterationIds.length > 0 && deps.iterations ? deps.iterations.byIds(iterationIds).then(byId) : new Map(),
    ]);

    const presentUser = (id: number | null | undefined) => {
      const found = typeof id === 'number' ? users.get(id) : undefined;
      return found ? userBasic(found, options.externalUrl) : null;
    };
    const relinked = <T extends { web_url?: unknown }>(entity: T) => (options.relink ? relinkWebUrl({ relink: options.relink }, entity) : entity);
    const presentMilestone = (milestone: Milestone) => relinked(deps.milestones.entity(milestone));
    const presentIteration = (iteration: Parameters<IterationsService['entity']>[0]) => relinked(deps.iterations!.entity(iteration));
    const user = share ? sharedBy(presentUser) : presentUser;
    const milestoneOf = share ? sharedBy(presentMilestone) : presentMilestone;
    const iterationOf = share ? sharedBy(presentIteration) : presentIteration;
    // Label and assignee lists by their ids, joined: issues with the same ones share one list.
    const presentLabels = (ids: string) => {
      const issueLabels = ids === '' ? [] : ids.split(',').flatMap((id) => labels.get(Number(id)) ?? []);
      return options.withLabelsDetails ? deps.labels.present(issueLabels, true) : deps.labels.present(issueLabels, false);
    };
    const presentAssigned = (ids: string) => (ids === '' ? [] : ids.split(',').flatMap((id) => user(Number(id)) ?? []));
    const labelsOf = share ? sharedBy(presentLabels) : presentLabels;
    const assignedOf = share ? sharedBy(presentAssigned) : presentAssigned;
    return issues.map((issue) => {
      const projectPath = paths.get(issue.projectId) ?? '';
      const assigned = assignedOf((assignees.get(issue.id) ?? []).join(','));
      const milestone = typeof issue.milestoneId === 'number' ? milestones.get(issue.milestoneId) : undefined;
      const iteration = typeof issue.iterationId === 'number' ? iterations.get(issue.iterationId) : undefined;
      const related: Related = {
        closed_by: user(issue.closedById),
        labels: labelsOf((labelLinks.get(issue.id) ?? []).join(',')),
        milestone: milestone ? milestoneOf(milestone) : null,
        assignees: assigned,
        author: user(issue.authorId),
        assignee: assigned[0] ?? null,
        user_notes_count: noteCounts.get(issue.id) ?? 0,
        upvotes: votes.get(issue.id)?.upvotes ?? 0,
        downvotes: votes.get(issue.id)?.downvotes ?? 0,
        iteration: iteration && deps.iterations ? iterationOf(iteration) : null,
      };
      const links = { assignees: assignees.get(issue.id) ?? [], labels: labelLinks.get(issue.id) ?? [] };
      return finish(issue, related, () => issueBody(issue, related, projectPath, options), projectPath, links);
    });
  }

  /** The issue's answer, with the related fields in their places. */
  function issueBody(issue: IssueRow, related: Related, projectPath: string, options: PresentOptions): Record<string, unknown> {
    const tasks = taskCompletion(issue.description ?? null);
    const webUrl = `${options.externalUrl}/${projectPath}/-/issues/${issue.iid}`;
    const body: Record<string, unknown> = {
      id: issue.id,
      iid: issue.iid,
      project_id: issue.projectId,
      title: issue.title,
      description: issue.description ?? null,
      state: issue.state,
      created_at: issue.createdAt.toISOString(),
      updated_at: issue.updatedAt.toISOString(),
      closed_at: issue.closedAt?.toISOString() ?? null,
      closed_by: related.closed_by,
      labels: related.labels,
      milestone: related.milestone,
      assignees: related.assignees,
      author: related.author,
      type: 'ISSUE',
      assignee: related.assignee,
      user_notes_count: related.user_notes_count,
      merge_requests_count: 0,
      upvotes: related.upvotes,
      downvotes: related.downvotes,
      due_date: issue.dueDate ?? null,
      confidential: issue.confidential,
      discussion_locked: issue.discussionLocked ?? null,
      issue_type: 'issue',
      web_url: webUrl,
      time_stats: { time_estimate: 0, total_time_spent: 0, human_time_estimate: null, human_total_time_spent: null },
      task_completion_status: tasks,
      weight: null,
      blocking_issues_count: 0,
      iteration: related.iteration,
      health_status: null,
    };
    body.has_tasks = tasks.count > 0;
    if (tasks.count > 0) body.task_status = `${tasks.completed_count} of ${tasks.count} checklist item${tasks.count === 1 ? '' : 's'} completed`;
    const api = `${options.externalUrl}/api/v4/projects/${issue.projectId}`;
    body._links = {
      self: `${api}/issues/${issue.iid}`,
      notes: `${api}/issues/${issue.iid}/notes`,
      award_emoji: `${api}/issues/${issue.iid}/award_emoji`,
      project: api,
      closed_as_duplicate_of: null,
    };
    body.references = { short: `#${issue.iid}`, relative: `#${issue.iid}`, full: `${projectPath}#${issue.iid}` };
    body.severity = 'UNKNOWN';
    if (options.full) body.subscribed = false;
    body.moved_to_id = null;
    body.imported = false;
    body.imported_from = 'none';
    body.service_desk_reply_to = null;
    return body;
  }

  async function presentIssues(issues: readonly IssueRow[], options: PresentOptions): Promise<Record<string, unknown>[]> {
    return presentEach(issues, options, (_issue, _related, body) => body());
  }

  /** The presented cache's key of an issue's own fields: the row's version, its project's path and the URL its links are built on. */
  const fragmentKey = (issue: IssueKey | IssueRow, projectPath: string, options: PresentOptions) =>
    versionKey(options.full ? 'issue-full' : 'issue-basic', options.externalUrl, projectPath, sourceKey('Issue', issue.id, issue.lockVersion));

  /**
   * Presents `issues` as JSON texts: their own fields from `kept` or kept now, the related
   * fields filled in their places. A kept fragment holds the row it was presented from.
   */
  function presentJson(
    cache: FragmentCache,
    issues: readonly IssueRow[],
    options: PresentOptions,
    kept?: ReadonlyMap<number, Fragment>,
    known?: { paths: ReadonlyMap<number, string>; links: ReadonlyMap<number, IssueLinks> },
  ): Promise<JsonText[]> {
    const serialised = new Map<object, string>();
    return presentEach(
      issues,
      options,
      (issue, related, body, projectPath, links) => {
        const initial: KeptIssue = { row: issue, links };
        const fragment =
          kept?.get(issue.id) ??
          cache.fragment(fragmentKey(issue, projectPath, options), () => ({ body: body(), live: RELATED_FIELDS, initial: { ...initial } }));
        return fragment.json(related, serialised);
      },
      true,
      known,
    );
  }

  /**
   * `presentIssues` as JSON texts for lists: an issue's own fields come from the presented
   * cache by the row's version (and its project's path and the URL its links are built on),
   * and the related fields are filled in their places.
   */
  async function presentIssuesJson(issues: readonly IssueRow[], options: PresentOptions): Promise<(JsonText | Record<string, unknown>)[]> {
    const { cache } = deps;
    if (!cache?.enabled) return presentIssues(issues, options);
    return presentJson(cache, issues, options);
  }

  /**
   * A page read as `IssueKey`s (only when the cache is enabled): the issues with a kept fragment
   * are presented from the row it holds, and only the others are read whole, by `wholeByIds`.
   * An issue deleted since the page was read is left out, as a page read a moment later would.
   */
  async function presentKeysJson(
    keys: readonly IssueKey[],
    options: PresentOptions,
    wholeByIds: (ids: readonly number[]) => Promise<IssueRow[]>,
  ): Promise<JsonText[]> {
    const { cache } = deps;
    if (!cache?.enabled) throw new Error('An issue page read as keys needs the presented cache');
    const paths = await projectPaths(keys as readonly IssueRow[], options.projectPaths);
    const kept = new Map<number, Fragment>();
    const links = new Map<number, IssueLinks>();
    const rows = new Map<number, IssueRow>();
    const missing: number[] = [];
    for (const key of keys) {
      const fragment = cache.kept(fragmentKey(key, paths.get(key.projectId) ?? '', options));
      if (fragment) {
        const held = fragment.initial as unknown as KeptIssue;
        kept.set(key.id, fragment);
        rows.set(key.id, held.row);
        links.set(key.id, held.links);
      } else missing.push(key.id);
    }
    if (missing.length > 0) for (const row of await wholeByIds(missing)) rows.set(row.id, row);
    const issues = keys.flatMap((key) => rows.get(key.id) ?? []);
    // A row read whole may be newer than its key: a project moved since then has no path yet.
    const unknownPath = issues.some((issue) => !paths.has(issue.projectId));
    return presentJson(cache, issues, options, kept, { paths: unknownPath ? await projectPaths(issues, paths) : paths, links });
  }

  return Object.assign(presentIssues, { json: presentIssuesJson, keysJson: presentKeysJson, cached: () => deps.cache?.enabled === true });
}

export type PresentIssues = ReturnType<typeof createIssuePresenter>;
