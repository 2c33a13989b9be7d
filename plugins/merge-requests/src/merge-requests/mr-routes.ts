/** The merge request endpoints: lists at three levels, a project's merge requests one by one, their diffs and commits, and the merge. */
import {
  created,
  defineRoute,
  forbidden,
  frameworkError,
  noContent,
  recordNotFound,
  page,
  requestMark,
  totalFor,
  totalFromRows,
  unauthorized,
  type RequestContext,
  type Route,
} from '@forgekit/kernel';
import type { AccessService, ProjectAccess } from '@forgekit/plugin-core/contracts';
import {
  commitEntity,
  commitSchema,
  diffEntity,
  diffSchema,
  projectWebUrl,
  type BranchProtection,
  type RepositoryReads,
  type RepositoryWrites,
} from '@forgekit/plugin-repositories/contracts';
import type { MergeRequestRow } from '../entities/merge-request.js';
import type { MergeRequestVersionRow } from '../entities/merge-request-version.js';
import type { MergeRequestGit } from './mr-git.js';
import type { MergeRequestStore } from './mr-store.js';
import type { MergeRequestOrderer } from './mr-order.js';
import { labelsCarriedIn, type ListScope, type MergeRequestLister } from './mr-list.js';
import { createParams, showParams, instanceListParams, mergeParams, projectListParams, updateParams, type ListInput } from './mr-params.js';
import type { PresentMergeRequests, PresentOptions } from './mr-presenter.js';
import type { RenderMergeRequest } from './mr-render.js';
import type { MergeRequestService } from './mr-service.js';
import {
  mergeRequestChangesSchema,
  mergeRequestListItemSchema,
  mergeRequestSchema,
  mergeRequestVersionDetailSchema,
  mergeRequestVersionSchema,
} from './mr-schemas.js';

export interface MergeRequestRouteDeps {
  service: MergeRequestService;
  store: MergeRequestStore;
  git: MergeRequestGit;
  access: AccessService;
  reads: RepositoryReads;
  writes: RepositoryWrites;
  protection: BranchProtection;
  lister: MergeRequestLister;
  orderFor: MergeRequestOrderer;
  present: PresentMergeRequests;
  render: RenderMergeRequest;
}

const ITEM = '/projects/:id/merge_requests/:merge_request_iid';

/** GitLab's MergeRequestDiff entity. */
const presentVersion = (version: MergeRequestVersionRow, mr: MergeRequestRow) => ({
  id: version.id,
  head_commit_sha: version.headCommitSha,
  base_commit_sha: version.baseCommitSha ?? null,
  start_commit_sha: version.startCommitSha ?? null,
  created_at: version.createdAt.toISOString(),
  merge_request_id: mr.id,
  state: 'collected',
  real_size: null,
  patch_id_sha: null,
});

/** `merge_request_iid` is a Grape Integer param. */
function checkIid(text: string): string {
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw frameworkError(400, 'merge_request_iid is invalid');
  return text;
}

export function mergeRequestRoutes(deps: MergeRequestRouteDeps): Route[] {
  const { service, store, git, access, reads, lister, present } = deps;

  async function listPage(ctx: RequestContext, scope: ListScope, input: ListInput) {
    const filter = await lister(ctx.user, scope, input);
    const order = await deps.orderFor(input.order_by ?? 'created_at', input.sort ?? 'desc', filter);
    const mark = requestMark(ctx.user);
    const rows = await store.list(filter, order, ctx.page.perPage, ctx.page.offset, mark);
    const total = () => totalFromRows(ctx.page, rows, () => store.count(filter));
    const options = {
      externalUrl: ctx.externalUrl,
      relink: ctx.relink,
      simple: input.view === 'simple',
      withLabelsDetails: input.with_labels_details ?? false,
      knownLabels: labelsCarriedIn(filter),
      mark,
    };
    if (input.render_html && input.view !== 'simple') {
      const items = await present(rows, { ...options, full: false });
      await Promise.all(items.map(async (item, index) => Object.assign(item, await deps.render(rows[index]!, ctx.externalUrl, ctx.user))));
      return page(items, await total());
    }
    return page(await present.listJson(rows, options), await total());
  }

  async function presentOne(ctx: RequestContext, mr: MergeRequestRow, projectAccess: ProjectAccess) {
    const options: PresentOptions = {
      externalUrl: ctx.externalUrl,
      relink: ctx.relink,
      full: true,
      withLabelsDetails: false,
      changesCount: async (_mr, refs) => (await git.diffs(await service.repositoryOf(mr.projectId), refs)).length,
      canMerge: async (item) => !!ctx.user && (await deps.protection.canMerge(ctx.user, projectAccess.project, item.targetBranch)),
    };
    return (await present([mr], options))[0]!;
  }

  /** The project's repository for reading and the merge request the route names. */
  async function readable(ctx: RequestContext) {
    const { access: projectAccess, repository } = await reads.forRead(ctx);
    const mr = await service.find(projectAccess, checkIid(ctx.params.merge_request_iid!));
    return { projectAccess, repository, mr };
  }

  return [
    defineRoute({
      method: 'GET',
      path: '/merge_requests',
      auth: 'optional',
      paginated: true,
      response: { schema: mergeRequestListItemSchema },
      input: instanceListParams,
      async handler(ctx, input) {
        if (!ctx.user && input.scope !== 'all') throw unauthorized();
        return listPage(ctx, { kind: 'instance' }, input);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/groups/:id/merge_requests',
      auth: 'optional',
      paginated: true,
      response: { schema: mergeRequestListItemSchema },
      input: projectListParams,
      before: (ctx) => access.requireGroup(ctx.user, ctx.params.id),
      handler: (ctx, input, groupAccess) => listPage(ctx, { kind: 'group', access: groupAccess }, input),
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/merge_requests',
      auth: 'optional',
      paginated: true,
      response: { schema: mergeRequestListItemSchema },
      input: projectListParams,
      before: async (ctx) => (await reads.forRead(ctx)).access,
      handler: (ctx, input, projectAccess) => listPage(ctx, { kind: 'project', access: projectAccess }, input),
    }),
    defineRoute({
      method: 'POST',
      path: '/projects/:id/merge_requests',
      response: { schema: mergeRequestSchema, errors: [409, 422] },
      input: createParams,
      before: async (ctx) => (await deps.writes.forWrite(ctx)).access,
      async handler(ctx, input, projectAccess) {
        const mr = await service.create(ctx.user, projectAccess, input);
        return created(await presentOne(ctx, mr, projectAccess));
      },
    }),
    defineRoute({
      method: 'GET',
      path: ITEM,
      auth: 'optional',
      response: { schema: mergeRequestSchema },
      input: showParams,
      before: readable,
      async handler(ctx, input, { mr, projectAccess }) {
        const body = await presentOne(ctx, mr, projectAccess);
        return input.render_html ? { ...body, ...(await deps.render(mr, ctx.externalUrl, ctx.user)) } : body;
      },
    }),
    defineRoute({
      method: 'PUT',
      path: ITEM,
      response: { schema: mergeRequestSchema, errors: [409, 422] },
      input: updateParams,
      async before(ctx) {
        const found = await readable(ctx);
        if (!service.canUpdate(ctx.user!, found.projectAccess, found.mr)) throw forbidden();
        return found;
      },
      async handler(ctx, input, { projectAccess, mr }) {
        return presentOne(ctx, await service.update(ctx.user, projectAccess, mr, input), projectAccess);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: ITEM,
      response: { status: 204, errors: [400, 412] },
      before: async (ctx) => (await reads.forRead(ctx)).access,
      async handler(ctx, _input, projectAccess) {
        await service.remove(ctx.user, projectAccess, checkIid(ctx.params.merge_request_iid), ctx.header('If-Unmodified-Since'));
        return noContent();
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${ITEM}/changes`,
      auth: 'optional',
      response: { schema: mergeRequestChangesSchema, errors: [400] },
      before: readable,
      async handler(ctx, _input, { mr, projectAccess, repository }) {
        const body = await presentOne(ctx, mr, projectAccess);
        const diffs = await git.diffs(repository, body.diff_refs as Parameters<MergeRequestGit['diffs']>[1]);
        return { ...body, changes: diffs.map(diffEntity), overflow: false };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${ITEM}/diffs`,
      auth: 'optional',
      paginated: true,
      response: { schema: diffSchema },
      before: readable,
      async handler(ctx, _input, { mr, repository }) {
        const diffs = await git.diffs(repository, await git.refs(repository, mr));
        const items = diffs.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage).map(diffEntity);
        return page(items, await totalFor(ctx.page, items.length, async () => diffs.length));
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${ITEM}/commits`,
      auth: 'optional',
      paginated: true,
      response: { schema: commitSchema },
      before: readable,
      async handler(ctx, _input, { mr, projectAccess, repository }) {
        const commits = await git.commits(repository, await git.refs(repository, mr));
        const projectUrl = projectWebUrl(ctx.externalUrl, projectAccess.project);
        const items = commits.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage).map((commit) => commitEntity(commit, projectUrl));
        return page(items, await totalFor(ctx.page, items.length, async () => commits.length));
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${ITEM}/versions`,
      auth: 'optional',
      paginated: true,
      response: { schema: mergeRequestVersionSchema },
      before: readable,
      async handler(ctx, _input, { mr }) {
        const versions = await store.versionsOf(mr.id);
        const items = versions.slice(ctx.page.offset, ctx.page.offset + ctx.page.perPage).map((version) => presentVersion(version, mr));
        return page(items, await totalFor(ctx.page, items.length, async () => versions.length));
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${ITEM}/versions/:version_id`,
      auth: 'optional',
      response: { schema: mergeRequestVersionDetailSchema, errors: [400] },
      before: readable,
      async handler(ctx, _input, { mr, projectAccess, repository }) {
        const id = /^\d+$/.test(ctx.params.version_id) ? Number(ctx.params.version_id) : Number.NaN;
        const version = Number.isSafeInteger(id) ? await store.findVersion(mr.id, id) : undefined;
        if (!version) throw recordNotFound();
        const refs = { base_sha: version.baseCommitSha ?? null, head_sha: version.headCommitSha, start_sha: version.startCommitSha ?? null };
        const projectUrl = projectWebUrl(ctx.externalUrl, projectAccess.project);
        const [commits, diffs] = await Promise.all([git.commits(repository, refs), git.diffs(repository, refs)]);
        return {
          ...presentVersion(version, mr),
          commits: commits.map((commit) => commitEntity(commit, projectUrl)),
          diffs: diffs.map(diffEntity),
        };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: `${ITEM}/merge`,
      response: { schema: mergeRequestSchema, errors: [405, 409, 422] },
      input: mergeParams,
      before: readable,
      async handler(ctx, input, { mr, projectAccess }) {
        const merged = await service.merge(ctx.user, projectAccess, mr, input, await deps.writes.pusher(ctx.user));
        return presentOne(ctx, merged, projectAccess);
      },
    }),
  ];
}
