/** The repository tree at a ref and path. */
import { apiError, defineRoute, f, frameworkError, notFound, page, params, type Route } from '@forgekit/kernel';
import type { TreeEntry } from '../git/repo-reader.js';
import { pathField, revisionField } from '../shared/input-checks.js';
import { defaultBranchOf, type RouteDeps } from '../shared/route-deps.js';
import { treeEntrySchema } from './tree-schemas.js';

const treeEntity = (entry: TreeEntry) => ({ id: entry.id, name: entry.name, type: entry.type, path: entry.path, mode: entry.mode });

/** Directories first, each group in git's order. */
const treesFirst = (entries: TreeEntry[]) => [...entries.filter((entry) => entry.type === 'tree'), ...entries.filter((entry) => entry.type !== 'tree')];

export function treeRoutes({ repos, projectRepos }: RouteDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/projects/:id/repository/tree',
      auth: 'optional',
      paginated: true,
      response: { schema: treeEntrySchema },
      input: params({
        ref: f.optional(revisionField()),
        path: f.optional(pathField()),
        recursive: f.optional(f.boolean(), false),
        pagination: f.optional(f.values(['legacy', 'keyset', 'none']), 'legacy'),
        page_token: f.optional(f.string()),
      }),
      async handler(ctx, input) {
        if (input.pagination === 'none' && !input.recursive) throw frameworkError(400, 'pagination cannot be "none" unless "recursive" is true');
        const { access, repository } = await projectRepos.forRead(ctx);
        const ref = input.ref || (await defaultBranchOf(repos, repository, access.project));
        const commit = repository ? await repos.resolveCommit(repository, ref) : null;
        if (!commit) throw notFound('Tree');
        const entries = await repos.readTree(repository!, commit, input.path ?? '', !!input.recursive);
        if (!entries) throw apiError(404, '404 invalid revision or path Not Found');
        const sorted = treesFirst(entries).map(treeEntity);
        if (input.pagination === 'none') return sorted;
        const { perPage, offset } = ctx.page;
        if (input.pagination === 'keyset') {
          const start = input.page_token ? sorted.findIndex((entry) => entry.id === input.page_token) + 1 : 0;
          const slice = sorted.slice(start, start + perPage);
          ctx.setHeader('X-Per-Page', String(perPage));
          if (start + perPage < sorted.length) {
            const next = new URL(`${ctx.externalUrl}${ctx.path}`);
            for (const [key, value] of Object.entries({ ...input, per_page: perPage, page_token: slice[slice.length - 1]!.id })) {
              if (value !== undefined && value !== null) next.searchParams.set(key, String(value));
            }
            ctx.setHeader('Link', `<${next.toString()}>; rel="next"`);
          }
          return slice;
        }
        return page(sorted.slice(offset, offset + perPage), sorted.length);
      },
    }),
  ];
}
