/** Branches: list, show, create, delete (one, or every merged one), and the older protect / unprotect calls. */
import { accepted, apiError, defineRoute, f, noContent, notFound, page, params, type RequestContext, type Route, acceptedSchema } from '@forgekit/kernel';
import { AccessLevel, ARCHIVED_PROJECT_GUARD, type ProjectAccess } from '@forgekit/plugin-core/contracts';
import { projectWebUrl } from '../commits/commit-presenter.js';
import { git } from '../git/git-runner.js';
import type { CommitInfo } from '../git/repo-reader.js';
import { RepositoryError } from '../git/repository-error.js';
import { checkRevision } from '../shared/input-checks.js';
import { matchesSearch } from '../shared/ref-search.js';
import { adoptDefaultBranch, asApiError, defaultBranchOf, type RouteDeps } from '../shared/route-deps.js';
import { isValidRefName } from '../git/ref-names.js';
import type { RepositoryHandle } from '../storage/repository-service.js';
import { emptyProjectPushMessage, PUSH_MESSAGES } from '../git-http/push-rules.js';
import type { BranchPolicy } from '../protected-branches/branch-policy.js';
import { branchEntity } from './branch-presenter.js';
import { RE2JS } from 're2js';
import { branchSchema } from './branch-schemas.js';

export function branchRoutes({ repos, projectRepos, projects, protection, protectedBranches: store, access: accessService }: RouteDeps): Route[] {
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
    const policy = await protection.policyFor(ctx.user, access.project, { access, repository });
    return names.map(({ name, commit }) =>
      branchEntity(
        {
          name,
          commit,
          merged: merged.has(name),
          isDefault: name === defaultBranch,
          protected: policy.isProtected(name),
          developersCanPush: policy.developersCan(name, 'push'),
          developersCanMerge: policy.developersCan(name, 'merge'),
          canPush: policy.canPush(name),
        },
        url,
      ),
    );
  }

  /** Whether a commit is on a branch that a rule protects: the only base GitLab takes for a new protected branch. */
  async function onProtectedBranch(repository: RepositoryHandle, policy: BranchPolicy, sha: string) {
    const { stdout } = await git(repository.gitDir, ['for-each-ref', `--contains=${sha}`, '--format=%(refname:lstrip=2)', 'refs/heads/'], {
      okCodes: [1, 128, 129],
    });
    return stdout
      .toString('utf8')
      .split('\n')
      .some((name) => name !== '' && policy.matching(name).length > 0);
  }

  /** GitLab's checks on a branch created through the API (its pre-receive, as the web sees it). */
  async function checkCreation(repository: RepositoryHandle, policy: BranchPolicy, branch: string, target: string | null) {
    if (!policy.isProtected(branch) || policy.canPush(branch)) return;
    if (!policy.canMerge(branch)) throw apiError(400, PUSH_MESSAGES.createProtected);
    if (target && !(await onProtectedBranch(repository, policy, target))) throw apiError(400, PUSH_MESSAGES.createProtectedFromNewCommit);
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
      response: { schema: branchSchema },
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
          // RE2, as GitLab's untrusted regexps: matching takes linear time whatever the pattern.
          let pattern: RE2JS;
          try {
            pattern = RE2JS.compile(input.regex);
          } catch {
            return page([], 0);
          }
          refs = refs.filter((ref) => pattern.matcher(ref.name).find());
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
      response: { schema: branchSchema },
      async handler(ctx) {
        const { access, repository } = await projectRepos.forRead(ctx);
        const commit = await findBranch(repository, ctx.params.branch!);
        return (await present(ctx, access, repository!, [{ name: ctx.params.branch!, commit }]))[0];
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/projects/:id/repository/branches',
      response: { schema: branchSchema },
      input: params({ branch: f.nonBlankString(), ref: f.nonBlankString() }),
      async handler(ctx, input) {
        const { access, repository } = await projectRepos.forWrite(ctx);
        checkRevision('ref', input.ref);
        const pusher = await projectRepos.pusher(ctx.user!);
        try {
          if (!(await repos.hasBranches(repository))) {
            // As GitLab does, a branch in an empty repository starts from a first commit on the default branch.
            const defaultBranch = access.project.defaultBranch ?? 'main';
            const policy = await protection.policyFor(ctx.user, access.project, { access, repository });
            if (!policy.canPush(defaultBranch))
              throw apiError(400, emptyProjectPushMessage(`${access.project.namespace.fullPath}/${access.project.path}`, ctx.externalUrl));
            await repos.commitFiles(
              repository,
              {
                branch: defaultBranch,
                message: 'Add README.md',
                author: pusher,
                committer: pusher,
                actions: [{ action: 'create', filePath: 'README.md', content: Buffer.alloc(0) }],
              },
              pusher,
            );
            await adoptDefaultBranch(projects, access.project, defaultBranch);
          }
          const base = await repos.resolveCommit(repository, input.ref);
          if (base && isValidRefName(input.branch) && !(await repos.branchHead(repository, input.branch))) {
            await checkCreation(repository, await protection.policyFor(ctx.user, access.project, { access, repository }), input.branch, base);
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
      response: { status: 204, errors: [400] },
      async handler(ctx) {
        const { access, repository } = await projectRepos.forWrite(ctx);
        const name = ctx.params.branch!;
        await findBranch(repository, name);
        const policy = await protection.policyFor(ctx.user, access.project, { access, repository });
        // The default branch has its own refusal (below); a protected one needs a Maintainer.
        if ((await repos.headBranch(repository)) !== name && !policy.canDelete(name)) throw apiError(400, PUSH_MESSAGES.deleteProtected);
        const pusher = await projectRepos.pusher(ctx.user!);
        try {
          await repos.deleteBranch(repository, name, pusher);
        } catch (error) {
          if (error instanceof RepositoryError && error.code === 'not_found') throw notFound('Branch');
          return asApiError(error);
        }
        return noContent();
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/projects/:id/repository/merged_branches',
      response: { status: 202, schema: acceptedSchema },
      async handler(ctx) {
        const { access, repository } = await projectRepos.forWrite(ctx);
        const defaultBranch = await defaultBranchOf(repos, repository, access.project);
        const merged = await mergedNames(repository, await repos.branchHead(repository, defaultBranch));
        const policy = await protection.policyFor(ctx.user, access.project, { access, repository });
        const pusher = await projectRepos.pusher(ctx.user!);
        // Protected branches and the default branch stay.
        for (const name of merged) {
          if (name === defaultBranch || policy.isProtected(name)) continue;
          await repos.deleteBranch(repository, name, pusher).catch((error: unknown) => {
            if (!(error instanceof RepositoryError)) throw error;
          });
        }
        return accepted();
      },
    }),
    ...(['protect', 'unprotect'] as const).map((verb) =>
      defineRoute({
        method: 'PUT',
        path: `/projects/:id/repository/branches/:branch/${verb}`,
        response: { schema: branchSchema },
        // Protection is the project's administration, which an archived project still takes.
        exemptFrom: [ARCHIVED_PROJECT_GUARD],
        before: (ctx: RequestContext) => accessService.requireProject(ctx.user, ctx.params.id!, AccessLevel.MAINTAINER),
        input: params({ developers_can_push: f.optional(f.boolean()), developers_can_merge: f.optional(f.boolean()) }),
        async handler(ctx, input) {
          const { access, repository } = await projectRepos.forRead(ctx);
          const name = ctx.params.branch!;
          const commit = await findBranch(repository, name);
          const existing = await store.find(access.project.id, name);
          const level = (developers: boolean | null | undefined) => (developers ? AccessLevel.DEVELOPER : AccessLevel.MAINTAINER);
          if (verb === 'unprotect') {
            if (existing) await store.remove(existing.id);
          } else if (existing) {
            // The older API sets who may push and merge outright.
            await store.update(existing, {
              remove: [...existing.rules.push, ...existing.rules.merge].map((rule) => rule.id),
              add: [
                { action: 'push', accessLevel: level(input.developers_can_push) },
                { action: 'merge', accessLevel: level(input.developers_can_merge) },
              ],
            });
          } else {
            await store.create(access.project.id, {
              name,
              allowForcePush: false,
              codeOwnerApprovalRequired: false,
              levels: { push: [level(input.developers_can_push)], merge: [level(input.developers_can_merge)], unprotect: [AccessLevel.MAINTAINER] },
            });
          }
          return (await present(ctx, access, repository!, [{ name, commit }]))[0];
        },
      }),
    ),
  ];
}
