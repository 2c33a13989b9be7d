/** `PUT /projects/:id/repository/submodules/:submodule`: point a submodule's gitlink at another commit. */
import { apiError, defineRoute, f, params, type Route } from '@forgekit/kernel';
import {
  commitDetailEntity,
  commitDetailSchema,
  isFullSha,
  isSafePath,
  projectWebUrl,
  PUSH_INTO_BRANCH,
  RepositoryError,
  type BranchProtection,
  type RepositoryReads,
  type RepositoryWrites,
} from '@forgekit/plugin-repositories/contracts';

/** GitLab's (Gitaly's) refusals, all `400 {"message": ...}`. */
const refuse = (message: string) => apiError(400, message);

const GITLINK_MODE = '160000';

export function submoduleRoutes(reads: RepositoryReads, writes: RepositoryWrites, protection: BranchProtection): Route[] {
  return [
    defineRoute({
      method: 'PUT',
      path: '/projects/:id/repository/submodules/:submodule',
      response: { schema: commitDetailSchema },
      input: params({ commit_sha: f.string(), branch: f.string(), commit_message: f.optional(f.string()) }),
      async handler(ctx, input) {
        const submodule = ctx.params.submodule!;
        const { access, repository } = await writes.forWrite(ctx);
        if (!(await protection.policyFor(ctx.user, access.project, { access, repository })).canPush(input.branch)) throw refuse(PUSH_INTO_BRANCH);
        const empty = !(await reads.hasBranches(repository));
        const head = input.branch ? await reads.branchHead(repository, input.branch) : null;
        if (!empty && !head) throw refuse('You can only create or edit files when you are on a branch');
        if (empty) throw refuse('The repository is empty');
        const sha = input.commit_sha.toLowerCase();
        if (submodule.trim() === '' || !isFullSha(sha)) throw refuse('Invalid parameters');

        const path = submodule.replace(/^\/+|\/+$/g, '');
        const unsafe = !isSafePath(path) || path.split('/').some((part) => part === '.' || part === '');
        const entry = unsafe ? null : await reads.entryAt(repository, head!, path);
        if (!entry || entry.mode !== GITLINK_MODE) throw refuse('Invalid submodule path');
        if (entry.id === sha) throw refuse(`The submodule ${submodule} is already at ${input.commit_sha}`);

        const pusher = await writes.pusher(ctx.user!);
        const message = input.commit_message || `Update submodule ${submodule} with oid ${input.commit_sha}`;
        const { commit } = await writes
          .commitTreeEdits(
            repository,
            { branch: input.branch, expectedHead: head!, edits: [{ path, mode: GITLINK_MODE, sha }], message, author: pusher, committer: pusher },
            pusher,
          )
          .catch((error: unknown) => {
            throw error instanceof RepositoryError ? refuse(error.message) : error;
          });
        const detail = (await reads.readCommit(repository, commit))!;
        return commitDetailEntity(detail, projectWebUrl(ctx.externalUrl, access.project), access.project.id, null);
      },
    }),
  ];
}
