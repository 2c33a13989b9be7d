/** Branches: list, show, create, delete. */
import { defineRoute, f, noContent, notFound, page, params, type RequestContext, type Route } from '@forgekit/kernel';
import type { ProjectAccess } from '@forgekit/plugin-core';
import { projectWebUrl } from '../commits/commit-presenter.js';
import { git } from '../git/git-runner.js';
import type { CommitInfo } from '../git/repo-reader.js';
import { RepositoryError } from '../git/repository-error.js';
import { canPushCode } from '../shared/project-repository.js';
import { matchesSearch } from '../shared/ref-search.js';
import { adoptDefaultBranch, asApiError, defaultBranchOf, type RouteDeps } from '../shared/route-deps.js';
import type { RepositoryHandle } from '../storage/repository-service.js';
import { branchEntity } from './branch-presenter.js';

export function branchRoutes({ repos, projectRepos, projects }: RouteDeps): Route[] {
  /** Branch names merged into the default branch (not at its tip). */
  async function mergedNames(repository: RepositoryHandle, defaultHead: string | null): Promise<Set<string>> {
    if (!defaultHead) return new Set();
    const { stdout } = await git(repository.gitDir, ['for-each-ref', `--merged=${defaultHead}`, '--format=%(objectname) %(refname:lstrip=2)', 'refs/heads/']);
    const names = new Set<string>();
    for (const line of stdout.toString('utf8').split('\n')) {
      const space = line.indexOf(' ');
      if (space > 0 && line.slice(0, space) !== defaultHead) names.add(line.slice(space + 1));
    }
    return names;
  }

  async function present(ctx: RequestContext, access: ProjectAccess, repository: RepositoryHandle, names: { name: string; commit: CommitInfo }[]) {
    const defaultBranch = await defaultBranchOf(repos, repository, access.project);
    const defaultHead = await repos.branchHead(repository, defaultBranch);
    const merged = await mergedNames(repository, defaultHead);
    const url = projectWebUrl(ctx.externalUrl, access.project);
    return names.map(({ name, commit }) =>
      branchEntity({ name, commit, merged: merged.has(name), isDefault: name === defaultBranch, canPush: canPushCode(projects, access, ctx.user) }, url),
    );
  }

  async function findBranch(repository: RepositoryHandle | null, name: string) {
    const head = repository ? await repos.branchHead(repository, name) : null;
    const commit = head ? await repos.readCommit(repository!, head) : null;
    if (!commit) throw notFound('Branch');
    return commit;
  }

  return [
    defineRoute({
      method: 'GET',
      path: '/projects/:id/repository/branches',
      auth: 'optional',
      paginated: true,
      input: params({
        search: f.optional(f.string()),
        regex: f.optional(f.string()),
        sort: f.optional(f.values(['name_asc', 'updated_asc', 'updated_desc']), 'name_asc'),
        page_token: f.optional(f.string()),
      }),
      async handler(ctx, input) {
        const { access, repository } = await projectRepos.forRead(ctx);
        if (!repository) return page([], 0);
        let refs = (await repos.listRefs(repository, 'branches')).filter((ref) => matchesSearch(ref.name, input.search));
        if (input.regex) {
          let pattern: RegExp;
          try {
            pattern = new RegExp(input.regex);
          } catch {
            return page([], 0);
          }
          refs = refs.filter((ref) => pattern.test(ref.name));
        }
        if (input.page_token) refs = refs.filter((ref) => ref.name > input.page_token!);
        const commits = new Map<string, CommitInfo>();
        const withCommits = await Promise.all(
          refs.map(async (ref) => {
            if (!commits.has(ref.commitId)) commits.set(ref.commitId, (await repos.readCommit(repository, ref.commitId))!);
            return { name: ref.name, commit: commits.get(ref.commitId)! };
          }),
        );
        if (input.sort === 'updated_asc' || input.sort === 'updated_desc') {
          const sign = input.sort === 'updated_asc' ? 1 : -1;
          withCommits.sort((a, b) => sign * (Date.parse(a.commit.committedDate) - Date.parse(b.commit.committedDate)) || a.name.localeCompare(b.name));
        }
        const { offset, perPage } = ctx.page;
        return page(await present(ctx, access, repository, withCommits.slice(offset, offset + perPage)), withCommits.length);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/repository/branches/:branch',
      auth: 'optional',
      async handler(ctx) {
        const { access, repository } = await projectRepos.forRead(ctx);
        const commit = await findBranch(repository, ctx.params.branch!);
        return (await present(ctx, access, repository!, [{ name: ctx.params.branch!, commit }]))[0];
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/projects/:id/repository/branches',
      input: params({ branch: f.nonBlankString(), ref: f.nonBlankString() }),
      async handler(ctx, input) {
        const { access, repository } = await projectRepos.forWrite(ctx);
        const pusher = await projectRepos.pusher(ctx.user!);
        try {
          if (!(await repos.hasBranches(repository))) {
            // As GitLab does, a branch in an empty repository starts from a first commit on the default branch.
            const defaultBranch = access.project.default_branch ?? 'main';
            await repos.commitFiles(
              repository,
              { branch: defaultBranch, message: 'Add README.md', author: pusher, committer: pusher, actions: [{ action: 'create', filePath: 'README.md', content: Buffer.alloc(0) }] },
              pusher,
            );
            await adoptDefaultBranch(projects, access.project, defaultBranch);
          }
          const target = await repos.createBranch(repository, input.branch, input.ref, pusher);
          const commit = (await repos.readCommit(repository, target))!;
          return (await present(ctx, access, repository, [{ name: input.branch, commit }]))[0];
        } catch (error) {
          return asApiError(error);
        }
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/projects/:id/repository/branches/:branch',
      async handler(ctx) {
        const { repository } = await projectRepos.forWrite(ctx);
        await findBranch(repository, ctx.params.branch!);
        const pusher = await projectRepos.pusher(ctx.user!);
        try {
          await repos.deleteBranch(repository, ctx.params.branch!, pusher);
        } catch (error) {
          if (error instanceof RepositoryError && error.code === 'not_found') throw notFound('Branch');
          return asApiError(error);
        }
        return noContent();
      },
    }),
  ];
}
