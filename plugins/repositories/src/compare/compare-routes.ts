/** Compare two branches, tags or commits. */
import { apiError, defineRoute, f, notFound, params, type Route } from '@forgekit/kernel';
import { commitEntity, projectWebUrl } from '../commits/commit-presenter.js';
import { revisionField } from '../shared/input-checks.js';
import type { RouteDeps } from '../shared/route-deps.js';
import { diffEntity } from './diff-presenter.js';
import { compareSchema } from './compare-schemas.js';

export function compareRoutes({ repos, projectRepos }: RouteDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/projects/:id/repository/compare',
      auth: 'optional',
      response: { schema: compareSchema },
      input: params({
        from: revisionField(),
        to: revisionField(),
        from_project_id: f.optional(f.id()),
        straight: f.optional(f.boolean(), false),
        unidiff: f.optional(f.boolean(), false),
      }),
      async handler(ctx, input) {
        const { access, repository } = await projectRepos.forRead(ctx);
        if (input.from_project_id && input.from_project_id !== access.project.id) {
          // Without forks, the only project to compare from is this one.
          throw apiError(400, `Target project id:${input.from_project_id} is not a fork of project id:${ctx.params.id}`);
        }
        const [from, to] = repository
          ? await Promise.all([repos.resolveCommit(repository, input.from), repos.resolveCommit(repository, input.to)])
          : [null, null];
        if (!from || !to) throw notFound('Ref');
        const base = input.straight ? from : ((await repos.mergeBase(repository!, from, to)) ?? from);
        const [commits, diffs] = await Promise.all([
          repos.listCommits(repository!, { revisions: [to], exclude: [base], reverse: true }),
          repos.diff(repository!, base, to),
        ]);
        const url = projectWebUrl(ctx.externalUrl, access.project);
        const entities = commits.map((commit) => commitEntity(commit, url));
        return {
          commit: entities[entities.length - 1] ?? null,
          commits: entities,
          diffs: diffs.map(diffEntity),
          compare_timeout: false,
          compare_same_ref: from === to,
          web_url: `${url}/-/compare/${input.from}${input.straight ? '..' : '...'}${input.to}`,
        };
      },
    }),
  ];
}
