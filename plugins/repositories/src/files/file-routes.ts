/** Blobs by id, and single files: metadata with content, raw bytes, and create, update and delete as one-action commits. */
import { createHash } from 'node:crypto';
import { apiError, defineRoute, f, noContent, notFound, params, raw, type RequestContext, type Route } from '@forgekit/kernel';
import type { FileAction } from '../git/commit-writer.js';
import { PUSH_INTO_BRANCH } from '../protected-branches/branch-policy.js';
import type { BlobInfo } from '../git/repo-reader.js';
import { checkPath, checkRevision, revisionField } from '../shared/input-checks.js';
import { adoptDefaultBranch, asApiError, defaultBranchOf, type RouteDeps } from '../shared/route-deps.js';
import type { RepositoryHandle } from '../storage/repository-service.js';
import { blobSchema, fileCommitSchema, fileSchema } from './file-schemas.js';

/** Grape's `file_path: true` check; the raw endpoint also allows a leading slash. */
function checkFilePathParam(path: string, allowLeadingSlash = false) {
  checkPath('file_path', path, { allowAbsolute: allowLeadingSlash });
  return allowLeadingSlash ? path.replace(/^\/+/, '') : path;
}

const looksBinary = (data: Buffer) => data.subarray(0, 8000).includes(0);

export function fileRoutes({ repos, projectRepos, projects, protection }: RouteDeps): Route[] {
  /** The commit and blob a read names; GitLab's 404s for a missing ref or file. */
  async function findFile(_ctx: RequestContext, repository: RepositoryHandle | null, ref: string, path: string) {
    const commit = repository ? await repos.resolveCommit(repository, ref) : null;
    if (!commit) throw notFound('Commit');
    const blob = await repos.readBlob(repository!, commit, path);
    if (!blob) throw notFound('File');
    return { commit, blob };
  }

  async function blobData(repository: RepositoryHandle, ref: string, commit: string, path: string, blob: BlobInfo) {
    return {
      file_name: path.slice(path.lastIndexOf('/') + 1),
      file_path: path,
      size: blob.size,
      encoding: 'base64',
      content_sha256: createHash('sha256').update(blob.data).digest('hex'),
      ref,
      blob_id: blob.id,
      commit_id: commit,
      last_commit_id: await repos.lastCommitFor(repository, commit, path),
      execute_filemode: blob.mode === '100755',
    };
  }

  /** GitLab's `X-Gitlab-*` file headers, with the neutral prefix. */
  function setFileHeaders(ctx: RequestContext, data: Record<string, unknown>) {
    for (const [key, value] of Object.entries(data)) {
      const name = key
        .split('_')
        .map((word) => word[0]!.toUpperCase() + word.slice(1))
        .join('-');
      ctx.setHeader(`X-Service-${name}`, String(value ?? ''));
    }
  }

  const writeFields = {
    branch: f.nonBlankString(),
    commit_message: f.nonBlankString(),
    start_branch: f.optional(revisionField()),
    author_email: f.optional(f.string()),
    author_name: f.optional(f.string()),
  };
  const contentFields = {
    ...writeFields,
    content: f.string(),
    encoding: f.optional(f.values(['base64', 'text']), 'text'),
    last_commit_id: f.optional(f.string()),
    execute_filemode: f.optional(f.boolean()),
  };

  async function commitOne(
    ctx: RequestContext,
    input: { branch: string; commit_message: string; start_branch?: string | null; author_email?: string | null; author_name?: string | null },
    actions: FileAction[],
  ) {
    const { access, repository } = await projectRepos.forWrite(ctx);
    const policy = await protection.policyFor(ctx.user, access.project, { access, repository });
    if (!policy.canPush(input.branch)) throw apiError(400, PUSH_INTO_BRANCH);
    const pusher = await projectRepos.pusher(ctx.user!);
    const result = await repos
      .commitFiles(
        repository,
        {
          branch: input.branch,
          startBranch: input.start_branch,
          message: input.commit_message,
          author: { name: input.author_name || pusher.name, email: input.author_email || pusher.email },
          committer: pusher,
          actions,
        },
        pusher,
      )
      .catch((error) => asApiError(error));
    if (result.becameDefault) await adoptDefaultBranch(projects, access.project, input.branch);
  }

  const contentOf = (input: { content: string; encoding?: string | null }) => Buffer.from(input.content, input.encoding === 'base64' ? 'base64' : 'utf8');

  async function findBlob(ctx: RequestContext) {
    const { repository } = await projectRepos.forRead(ctx);
    const blob = repository ? await repos.readBlobById(repository, ctx.params.sha!) : null;
    if (!blob) throw notFound('Blob');
    return blob;
  }

  return [
    defineRoute({
      method: 'GET',
      path: '/projects/:id/repository/blobs/:sha',
      auth: 'optional',
      response: { schema: blobSchema },
      async handler(ctx) {
        const blob = await findBlob(ctx);
        return { size: blob.size, encoding: 'base64', content: blob.data.toString('base64'), sha: blob.id };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/repository/blobs/:sha/raw',
      auth: 'optional',
      response: { contentType: 'application/octet-stream' },
      async handler(ctx) {
        const blob = await findBlob(ctx);
        return raw(200, blob.data, looksBinary(blob.data) ? 'application/octet-stream' : 'text/plain; charset=utf-8', {
          'Cache-Control': 'max-age=0, private, must-revalidate, no-store, no-cache',
        });
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/repository/files/:file_path',
      auth: 'optional',
      scopes: ['read_repository'],
      response: { schema: fileSchema },
      input: params({ ref: f.nonBlankString() }),
      async handler(ctx, input) {
        const path = checkFilePathParam(ctx.params.file_path!);
        checkRevision('ref', input.ref);
        const { repository } = await projectRepos.forRead(ctx);
        const { commit, blob } = await findFile(ctx, repository, input.ref, path);
        const data = await blobData(repository!, input.ref, commit, path, blob);
        setFileHeaders(ctx, data);
        return { ...data, content: blob.data.toString('base64') };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/projects/:id/repository/files/:file_path/raw',
      auth: 'optional',
      scopes: ['read_repository'],
      response: { contentType: 'application/octet-stream' },
      input: params({ ref: f.optional(f.nonBlankString()), lfs: f.optional(f.boolean(), false) }),
      async handler(ctx, input) {
        const path = checkFilePathParam(ctx.params.file_path!, true);
        if (input.ref) checkRevision('ref', input.ref);
        const { access, repository } = await projectRepos.forRead(ctx);
        const ref = input.ref ?? (await defaultBranchOf(repos, repository, access.project));
        const { commit, blob } = await findFile(ctx, repository, ref, path);
        setFileHeaders(ctx, await blobData(repository!, ref, commit, path, blob));
        return raw(200, blob.data, looksBinary(blob.data) ? 'application/octet-stream' : 'text/plain; charset=utf-8', {
          'Cache-Control': 'max-age=0, private, must-revalidate, no-store, no-cache',
          'Content-Disposition': 'inline',
        });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/projects/:id/repository/files/:file_path',
      response: { schema: fileCommitSchema },
      input: params(contentFields),
      async handler(ctx, input) {
        const path = checkFilePathParam(ctx.params.file_path!);
        await commitOne(ctx, input, [{ action: 'create', filePath: path, content: contentOf(input), executeFilemode: input.execute_filemode }]);
        return { file_path: path, branch: input.branch };
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/projects/:id/repository/files/:file_path',
      response: { schema: fileCommitSchema },
      input: params(contentFields),
      async handler(ctx, input) {
        const path = checkFilePathParam(ctx.params.file_path!);
        const actions: FileAction[] = [{ action: 'update', filePath: path, content: contentOf(input), lastCommitId: input.last_commit_id }];
        if (input.execute_filemode !== undefined && input.execute_filemode !== null)
          actions.push({ action: 'chmod', filePath: path, executeFilemode: input.execute_filemode });
        await commitOne(ctx, input, actions);
        return { file_path: path, branch: input.branch };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/projects/:id/repository/files/:file_path',
      response: { status: 204 },
      input: params(writeFields),
      async handler(ctx, input) {
        const path = checkFilePathParam(ctx.params.file_path!);
        await commitOne(ctx, input, [{ action: 'delete', filePath: path }]);
        return noContent();
      },
    }),
  ];
}
