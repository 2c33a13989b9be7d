/** Tags: list, show, create, delete. */
import { defineRoute, f, noContent, notFound, page, params, type Route } from '@forgekit/kernel';
import { projectWebUrl } from '../commits/commit-presenter.js';
import type { CommitInfo, RefInfo } from '../git/repo-reader.js';
import { RepositoryError } from '../git/repository-error.js';
import { revisionField } from '../shared/input-checks.js';
import { matchesSearch } from '../shared/ref-search.js';
import { asApiError, type RouteDeps } from '../shared/route-deps.js';
import type { RepositoryHandle } from '../storage/repository-service.js';
import { tagEntity } from './tag-presenter.js';
import { tagSchema } from './tag-schemas.js';

/** Orders version-like names numerically part by part (`v1.10` after `v1.9`). */
function compareVersions(a: string, b: string): number {
  const parts = (name: string) => name.replace(/^v/i, '').split(/[.-]/);
  const [left, right] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const [x, y] = [left[i] ?? '', right[i] ?? ''];
    const [nx, ny] = [Number(x), Number(y)];
    const diff = x !== '' && y !== '' && !Number.isNaN(nx) && !Number.isNaN(ny) ? nx - ny : x.localeCompare(y);
    if (diff !== 0) return diff;
  }
  return 0;
}

export function tagRoutes({ repos, projectRepos }: RouteDeps): Route[] {
  async function withCommits(repository: RepositoryHandle, tags: RefInfo[]) {
    const commits = new Map<string, CommitInfo>();
    for (const tag of tags) if (!commits.has(tag.commitId)) commits.set(tag.commitId, (await repos.readCommit(repository, tag.commitId))!);
    return tags.map((tag) => ({ tag, commit: commits.get(tag.commitId)! }));
  }

  async function findTag(repository: RepositoryHandle | null, name: string) {
    const tag = repository ? (await repos.listRefs(repository, 'tags')).find((ref) => ref.name === name) : undefined;
    if (!tag) throw notFound('Tag');
    return tag;
  }

  return [
    defineRoute({
      method: 'GET',
      path: '/projects/:id/repository/tags',
      auth: 'optional',
      paginated: true,
      response: { schema: tagSchema },
      input: params({
        order_by: f.optional(f.values(['name', 'updated', 'version']), 'updated'),
        sort: f.optional(f.values(['asc', 'desc']), 'desc'),
        search: f.optional(f.string()),
        page_token: f.optional(f.string()),
      }),
      async handler(ctx, input) {
        const { access, repository } = await projectRepos.forRead(ctx);
        if (!repository) return page([], 0);
        const tags = await withCommits(
          repository,
          (await repos.listRefs(repository, 'tags')).filter((tag) => matchesSearch(tag.name, input.search)),
        );
        const sign = input.sort === 'asc' ? 1 : -1;
        tags.sort((a, b) => {
          if (input.order_by === 'name') return sign * a.tag.name.localeCompare(b.tag.name);
          if (input.order_by === 'version') return sign * compareVersions(a.tag.name, b.tag.name);
          return sign * (Date.parse(a.commit.committedDate) - Date.parse(b.commit.committedDate)) || a.tag.name.localeCompare(b.tag.name);
        });
        const { offset, perPage } = ctx.page;
        const url = projectWebUrl(ctx.externalUrl, access.project);
        return page(
          tags.slice(offset, offset + perPage).map(({ tag, commit }) => tagEntity(tag, commit, url)),
          tags.length,
        );
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/repository/tags/:tag_name',
      auth: 'optional',
      response: { schema: tagSchema },
      async handler(ctx) {
        const { access, repository } = await projectRepos.forRead(ctx);
        const [{ tag, commit }] = await withCommits(repository!, [await findTag(repository, ctx.params.tag_name!)]);
        return tagEntity(tag!, commit!, projectWebUrl(ctx.externalUrl, access.project));
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/projects/:id/repository/tags',
      response: { schema: tagSchema, errors: [409] },
      input: params({ tag_name: f.string(), ref: revisionField(), message: f.optional(f.string()) }),
      async handler(ctx, input) {
        const { access, repository } = await projectRepos.forWrite(ctx);
        const pusher = await projectRepos.pusher(ctx.user!);
        try {
          await repos.createTag(repository, input.tag_name, input.ref, input.message?.trim() || null, pusher);
        } catch (error) {
          return asApiError(error, error instanceof RepositoryError && error.code === 'tag_exists' ? 409 : 400);
        }
        const [{ tag, commit }] = await withCommits(repository, [await findTag(repository, input.tag_name)]);
        return tagEntity(tag!, commit!, projectWebUrl(ctx.externalUrl, access.project));
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/projects/:id/repository/tags/:tag_name',
      response: { status: 204, errors: [400] },
      async handler(ctx) {
        const { repository } = await projectRepos.forWrite(ctx);
        await findTag(repository, ctx.params.tag_name!);
        try {
          await repos.deleteTag(repository, ctx.params.tag_name!, await projectRepos.pusher(ctx.user!));
        } catch (error) {
          return asApiError(error);
        }
        return noContent();
      },
    }),
  ];
}
