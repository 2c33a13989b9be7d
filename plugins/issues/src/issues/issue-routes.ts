/** The issue endpoints: lists at three levels, and a project's issues one by one. */
import {
  created,
  defineRoute,
  forbidden,
  frameworkError,
  keptPages,
  noContent,
  page,
  recordNotFound,
  totalFromRows,
  unauthorized,
  type RequestContext,
  type Route,
} from '@forgekit/kernel';
import { projectFeatureOpen, type AccessService, type ProjectAccess, type ProjectService } from '@forgekit/plugin-core/contracts';
import type { IssueRow } from '../entities/issue.js';
import type { IssueLister, ListScope } from './issue-list.js';
import type { IssueOrderer } from './issue-order.js';
import { createParams, instanceListParams, projectListParams, updateParams, type ListInput } from './issue-params.js';
import type { PresentIssues } from './issue-presenter.js';
import { issueBasicSchema, issueSchema, issueStatisticsSchema } from './issue-schemas.js';
import type { IssueService } from './issue-service.js';
import type { IssueStore } from './issue-store.js';

export interface IssueRouteDeps {
  service: IssueService;
  store: IssueStore;
  access: AccessService;
  projects: ProjectService;
  lister: IssueLister;
  orderFor: IssueOrderer;
  present: PresentIssues;
  /** GitLab's `issues_create_limit`, per user and project: throws the 429 past it. */
  throttleCreate(userId: number, projectId: number): Promise<void>;
}

/** `issue_iid` is a Grape Integer param. */
function iidOf(text: string): number {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw frameworkError(400, 'issue_iid is invalid');
  return Number(text);
}

const pathsOf = (projectAccess: ProjectAccess) =>
  new Map([[projectAccess.project.id, `${projectAccess.project.namespace.fullPath}/${projectAccess.project.path}`]]);

export function issueRoutes({ service, store, access, projects, lister, orderFor, present, throttleCreate }: IssueRouteDeps): Route[] {
  /** Pages by caller, scope, filters and URL. */
  const pages = keptPages<{ items: readonly unknown[]; total: number }>();

  async function listPage(
    ctx: { user: Parameters<IssueLister>[0]; page: { perPage: number; offset: number; page: number }; externalUrl: string; relink(url: string): string },
    scope: ListScope,
    input: ListInput,
  ) {
    const scopeKey = scope.kind === 'project' ? `project:${scope.access.project.id}` : scope.kind === 'group' ? `group:${scope.access.group.id}` : 'instance';
    const key = `${ctx.user?.id ?? ''}|${scopeKey}|${ctx.externalUrl}|${ctx.page.perPage}|${ctx.page.offset}|${JSON.stringify(input)}`;
    const read = async () => {
      const filter = await lister(ctx.user, scope, input);
      const order = await orderFor(input.order_by ?? 'created_at', input.sort ?? 'desc', filter);
      const options = {
        externalUrl: ctx.externalUrl,
        relink: ctx.relink,
        full: false,
        withLabelsDetails: input.with_labels_details ?? false,
        projectPaths: scope.kind === 'project' ? pathsOf(scope.access) : undefined,
      };
      // With the presented cache, the page is read as keys, and only the issues without a kept fragment whole.
      const rows = present.cached()
        ? await store.listKeys(filter, order, ctx.page.perPage, ctx.page.offset)
        : await store.list(filter, order, ctx.page.perPage, ctx.page.offset);
      const items = present.cached() ? await present.keysJson(rows, options, store.byIds) : await present.json(rows as IssueRow[], options);
      return { items, total: await totalFromRows(ctx.page as never, rows, () => store.count(filter)) };
    };
    const { items, total } = await pages(key, ctx.user, read);
    return page(items, total);
  }

  /** A project the caller sees (else 404) whose issues feature is open to them (else 403). */
  async function requireIssues(user: Parameters<IssueLister>[0], idOrPath: string): Promise<ProjectAccess> {
    const projectAccess = await access.requireProject(user, idOrPath);
    if (!projectFeatureOpen(projects.settingsOf(projectAccess.project).issues_access_level, projectAccess, user)) throw forbidden();
    return projectAccess;
  }

  /** GitLab's issues_statistics: the list's filters, both states, counted. */
  async function statistics(user: Parameters<IssueLister>[0], scope: ListScope, input: ListInput) {
    const { opened, closed } = await store.countsByState(await lister(user, scope, { ...input, state: 'all' }));
    return { statistics: { counts: { all: opened + closed, closed, opened } } };
  }

  const presentOne = async (issue: IssueRow, projectAccess: ProjectAccess, ctx: Pick<RequestContext, 'externalUrl' | 'relink'>) =>
    (
      await present([issue], { externalUrl: ctx.externalUrl, relink: ctx.relink, full: true, withLabelsDetails: false, projectPaths: pathsOf(projectAccess) })
    )[0]!;

  return [
    defineRoute({
      method: 'GET',
      path: '/issues',
      response: { schema: issueBasicSchema },
      auth: 'optional',
      paginated: true,
      input: instanceListParams,
      async handler(ctx, input) {
        if (!ctx.user && input.scope !== 'all') throw unauthorized();
        return listPage(ctx, { kind: 'instance' }, input);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/issues_statistics',
      response: { schema: issueStatisticsSchema },
      auth: 'optional',
      input: instanceListParams,
      async handler(ctx, input) {
        if (!ctx.user && input.scope !== 'all') throw unauthorized();
        return statistics(ctx.user, { kind: 'instance' }, input);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/groups/:id/issues_statistics',
      response: { schema: issueStatisticsSchema },
      auth: 'optional',
      input: projectListParams,
      before: (ctx) => access.requireGroup(ctx.user, ctx.params.id),
      handler: (ctx, input, groupAccess) => statistics(ctx.user, { kind: 'group', access: groupAccess }, input),
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/issues_statistics',
      response: { schema: issueStatisticsSchema },
      auth: 'optional',
      input: projectListParams,
      before: (ctx) => requireIssues(ctx.user, ctx.params.id),
      handler: (ctx, input, projectAccess) => statistics(ctx.user, { kind: 'project', access: projectAccess }, input),
    }),
    defineRoute({
      method: 'GET',
      path: '/issues/:id',
      response: { schema: issueSchema },
      auth: 'admin',
      async handler(ctx) {
        // GitLab's admin lookup by global id: `Issue.find`, so an unknown id is `404 Not found`.
        const id = /^\d+$/.test(ctx.params.id) ? Number(ctx.params.id) : Number.NaN;
        const [issue] = Number.isSafeInteger(id) ? await store.byIds([id]) : [];
        if (!issue) throw recordNotFound();
        return (await present([issue], { externalUrl: ctx.externalUrl, relink: ctx.relink, full: true, withLabelsDetails: false }))[0]!;
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/groups/:id/issues',
      response: { schema: issueBasicSchema },
      auth: 'optional',
      paginated: true,
      input: projectListParams,
      before: (ctx) => access.requireGroup(ctx.user, ctx.params.id),
      handler: (ctx, input, groupAccess) => listPage(ctx, { kind: 'group', access: groupAccess }, input),
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/issues',
      response: { schema: issueBasicSchema },
      auth: 'optional',
      paginated: true,
      input: projectListParams,
      before: (ctx) => requireIssues(ctx.user, ctx.params.id),
      handler: (ctx, input, projectAccess) => listPage(ctx, { kind: 'project', access: projectAccess }, input),
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/issues/:issue_iid',
      response: { schema: issueSchema, errors: [400] },
      auth: 'optional',
      before: (ctx) => requireIssues(ctx.user, ctx.params.id),
      async handler(ctx, _input, projectAccess) {
        const issue = await service.find(ctx.user, projectAccess, iidOf(ctx.params.issue_iid));
        return presentOne(issue, projectAccess, ctx);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/projects/:id/issues',
      response: { schema: issueSchema, errors: [409, 429] },
      input: createParams,
      before: (ctx) => requireIssues(ctx.user, ctx.params.id),
      async handler(ctx, input, projectAccess) {
        await throttleCreate(ctx.user!.id, projectAccess.project.id);
        const issue = await service.create(ctx.user, projectAccess, input);
        return created(await presentOne(issue, projectAccess, ctx));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/projects/:id/issues/:issue_iid',
      response: { schema: issueSchema },
      input: updateParams,
      async before(ctx) {
        const projectAccess = await requireIssues(ctx.user, ctx.params.id);
        const iid = iidOf(ctx.params.issue_iid);
        const issue = await store.findByIid(projectAccess.project.id, iid);
        if (!issue) throw recordNotFound();
        if (!(await service.canUpdate(ctx.user, projectAccess, issue))) throw forbidden();
        return { projectAccess, issue };
      },
      async handler(ctx, input, { projectAccess, issue }) {
        const updated = await service.update(ctx.user, projectAccess, issue, input);
        return presentOne(updated, projectAccess, ctx);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/projects/:id/issues/:issue_iid',
      response: { status: 204, errors: [400, 412] },
      before: (ctx) => requireIssues(ctx.user, ctx.params.id),
      async handler(ctx, _input, projectAccess) {
        iidOf(ctx.params.issue_iid);
        await service.remove(ctx.user, projectAccess, ctx.params.issue_iid, ctx.header('If-Unmodified-Since'));
        return noContent();
      },
    }),
  ];
}
