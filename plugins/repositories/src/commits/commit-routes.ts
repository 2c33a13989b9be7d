/** Commits: list, show, diff, and one commit of several file actions. */
import { defineRoute, f, forbidden, notFound, page, params, rules, totalFor, type Route } from '@forgekit/kernel';
import { diffEntity } from '../compare/diff-presenter.js';
import { EMPTY_TREE } from '../git/ref-names.js';
import { limitedField, MAX_AUTHOR_LENGTH, pathField, revisionField } from '../shared/input-checks.js';
import { adoptDefaultBranch, asApiError, defaultBranchOf, type RouteDeps } from '../shared/route-deps.js';
import { actionsField } from './commit-actions.js';
import { PUSH_INTO_BRANCH } from '../protected-branches/branch-policy.js';
import { commitDetailEntity, commitEntity, projectWebUrl } from './commit-presenter.js';
import { commitDetailSchema, commitSchema } from './commit-schemas.js';
import { diffSchema } from '../compare/diff-schemas.js';

export function commitRoutes({ repos, projectRepos, projects, access: accessService, protection }: RouteDeps): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/projects/:id/repository/commits',
      auth: 'optional',
      paginated: true,
      response: { schema: commitSchema },
      input: params({
        ref_name: f.optional(revisionField()),
        since: f.optional(f.datetime()),
        until: f.optional(f.datetime()),
        path: f.optional(pathField()),
        author: f.optional(limitedField('author', MAX_AUTHOR_LENGTH)),
        all: f.optional(f.boolean()),
        with_stats: f.optional(f.boolean()),
        first_parent: f.optional(f.boolean()),
        order: f.optional(f.values(['default', 'topo']), 'default'),
        trailers: f.optional(f.boolean(), false),
      }),
      async handler(ctx, input) {
        const { access, repository } = await projectRepos.forRead(ctx);
        if (!repository) return page([], 0);
        const all = !!input.all;
        let revisions: string[] = [];
        if (!all) {
          const ref = input.ref_name || (await defaultBranchOf(repos, repository, access.project));
          const sha = await repos.resolveCommit(repository, ref);
          if (!sha) return page([], 0);
          revisions = [sha];
        }
        const options = {
          revisions,
          all,
          path: input.path,
          since: input.since,
          until: input.until,
          author: input.author,
          firstParent: !!input.first_parent,
          topoOrder: input.order === 'topo',
        };
        const commits = await repos.listCommits(repository, { ...options, limit: ctx.page.perPage, offset: ctx.page.offset });
        const total = await totalFor(ctx.page, commits.length, () => repos.countCommits(repository, options));
        const url = projectWebUrl(ctx.externalUrl, access.project);
        const items = await Promise.all(
          commits.map(async (commit) =>
            input.with_stats ? { ...commitEntity(commit, url), stats: await repos.commitStats(repository, commit.id) } : commitEntity(commit, url),
          ),
        );
        return page(items, total);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/projects/:id/repository/commits',
      response: { schema: commitDetailSchema },
      input: params(
        {
          branch: f.nonBlankString(),
          commit_message: f.string(),
          actions: actionsField(),
          start_branch: f.optional(revisionField()),
          start_sha: f.optional(revisionField()),
          start_project: f.optional(f.string()),
          author_email: f.optional(f.string()),
          author_name: f.optional(f.string()),
          stats: f.optional(f.boolean(), true),
          force: f.optional(f.boolean(), false),
        },
        rules.mutuallyExclusive('start_branch', 'start_sha'),
      ),
      async handler(ctx, input) {
        if (input.start_project) {
          // Projects have no forks here, so no start project is ever in this one's fork network.
          const { project: start } = await accessService.requireProject(ctx.user, input.start_project);
          throw forbidden(`Project is not included in the fork network for ${start.namespace.fullName} / ${start.name}`);
        }
        const { access, repository } = await projectRepos.forWrite(ctx, PUSH_INTO_BRANCH);
        const policy = await protection.policyFor(ctx.user, access.project, { access, repository });
        if (!policy.canPush(input.branch)) throw forbidden(PUSH_INTO_BRANCH);
        const pusher = await projectRepos.pusher(ctx.user!);
        const result = await repos
          .commitFiles(
            repository,
            {
              branch: input.branch,
              startBranch: input.start_branch,
              startSha: input.start_sha,
              force: !!input.force,
              message: input.commit_message,
              author: { name: input.author_name || pusher.name, email: input.author_email || pusher.email },
              committer: pusher,
              actions: input.actions,
            },
            pusher,
          )
          .catch((error) => asApiError(error));
        if (result.becameDefault) await adoptDefaultBranch(projects, access.project, input.branch);
        const { commit, stats } = result.details;
        return commitDetailEntity(commit, projectWebUrl(ctx.externalUrl, access.project), access.project.id, input.stats ? stats : null);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/repository/commits/:sha',
      auth: 'optional',
      response: { schema: commitDetailSchema },
      input: params({ stats: f.optional(f.boolean(), true) }),
      async handler(ctx, input) {
        const { access, repository } = await projectRepos.forRead(ctx);
        const found = repository ? await repos.readCommitWithStats(repository, ctx.params.sha!) : null;
        if (!found) throw notFound('Commit');
        return commitDetailEntity(found.commit, projectWebUrl(ctx.externalUrl, access.project), access.project.id, input.stats ? found.stats : null);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/repository/commits/:sha/diff',
      auth: 'optional',
      paginated: true,
      response: { schema: diffSchema },
      input: params({ unidiff: f.optional(f.boolean(), false) }),
      async handler(ctx) {
        const { repository } = await projectRepos.forRead(ctx);
        const commit = repository ? await repos.readCommit(repository, ctx.params.sha!) : null;
        if (!commit) throw notFound('Commit');
        const diffs = await repos.diff(repository!, commit.parentIds[0] ?? EMPTY_TREE, commit.id);
        const { offset, perPage } = ctx.page;
        return page(diffs.slice(offset, offset + perPage).map(diffEntity), diffs.length);
      },
    }),
  ];
}
