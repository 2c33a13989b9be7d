import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { git, repositoriesPlugin, repositoriesServiceRef, type RepositoryHandle } from '@forgekit/plugin-repositories';
import { submodulesPlugin } from '../plugin.js';

const OLD = '1111111111111111111111111111111111111111';
const NEW = '2222222222222222222222222222222222222222';

describe('PUT /projects/:id/repository/submodules/:submodule', () => {
  let app: TestApp;
  let repository: RepositoryHandle;
  let url: string;

  /** The gitlink at a path on main, read with git itself. */
  const gitlink = async (path: string) => (await git(repository.gitDir, ['ls-tree', 'main', '--', path])).stdout.toString();

  beforeAll(async () => {
    app = await createTestApp({ plugins: [repositoriesPlugin, submodulesPlugin] });
    url = `/api/v4/projects/${app.project.id}/repository/submodules`;
    const repos = app.kernel.resolve(repositoriesServiceRef);
    repository = await repos.ensure({ kind: 'project', containerId: app.project.id });
  });
  afterAll(() => app.close());

  it('answers 400 The repository is empty before there is a commit', async () => {
    expect(await app.put(`${url}/lib%2Fsub`, { branch: 'main', commit_sha: NEW }, { token: 'maintainer' })).toMatchObject({
      status: 400,
      body: { message: 'The repository is empty' },
    });
  });

  it('updates the gitlink in a new commit by the caller', async () => {
    const repos = app.kernel.resolve(repositoriesServiceRef);
    const identity = { id: app.users.maintainer.id, username: 'maintainer', name: 'Maintainer User', email: 'maintainer@example.com' };
    await repos.commitFiles(
      repository,
      {
        branch: 'main',
        message: 'Add submodule',
        author: identity,
        committer: identity,
        actions: [
          { action: 'create', filePath: '.gitmodules', content: Buffer.from('[submodule "lib/sub"]\n\tpath = lib/sub\n\turl = https://example.com/sub.git\n') },
        ],
      },
      identity,
    );
    const head = (await repos.branchHead(repository, 'main'))!;
    await repos.commitTreeEdits(
      repository,
      {
        branch: 'main',
        expectedHead: head,
        edits: [{ path: 'lib/sub', mode: '160000', sha: OLD }],
        message: 'Pin submodule',
        author: identity,
        committer: identity,
      },
      identity,
    );
    expect(await gitlink('lib/sub')).toBe(`160000 commit ${OLD}\tlib/sub\n`);
    const before = (await repos.branchHead(repository, 'main'))!;

    const res = await app.put(`${url}/lib%2Fsub`, { branch: 'main', commit_sha: NEW }, { token: 'maintainer' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: `Update submodule lib/sub with oid ${NEW}`,
      message: `Update submodule lib/sub with oid ${NEW}`,
      parent_ids: [before],
      author_name: app.users.maintainer.name,
      author_email: app.users.maintainer.email,
      committer_name: app.users.maintainer.name,
      committer_email: app.users.maintainer.email,
      status: null,
      project_id: app.project.id,
    });
    expect(res.body.short_id).toBe(res.body.id.slice(0, 8));
    expect(res.body).not.toHaveProperty('stats');
    expect(await gitlink('lib/sub')).toBe(`160000 commit ${NEW}\tlib/sub\n`);
    expect((await repos.branchHead(repository, 'main'))!).toBe(res.body.id);
    expect((await git(repository.gitDir, ['show', 'main:.gitmodules'])).stdout.toString()).toContain('path = lib/sub');
  });

  it('takes a custom commit message', async () => {
    const res = await app.put(`${url}/lib%2Fsub`, { branch: 'main', commit_sha: OLD, commit_message: 'Back to the old pin' }, { token: 'maintainer' });
    expect(res.body.title).toBe('Back to the old pin');
    expect(await gitlink('lib/sub')).toBe(`160000 commit ${OLD}\tlib/sub\n`);
  });

  it.each([
    ['a path that is not a submodule', '.gitmodules', { branch: 'main', commit_sha: NEW }, 'Invalid submodule path'],
    ['a missing path', 'nope', { branch: 'main', commit_sha: NEW }, 'Invalid submodule path'],
    ['a traversal', '..%2Flib%2Fsub', { branch: 'main', commit_sha: NEW }, 'Invalid submodule path'],
    ['a path longer than git takes', `lib%2F${'s'.repeat(200 * 1024)}`, { branch: 'main', commit_sha: NEW }, 'Invalid submodule path'],
    [
      'a branch name longer than git takes',
      'lib%2Fsub',
      { branch: 'b'.repeat(200 * 1024), commit_sha: NEW },
      'You can only create or edit files when you are on a branch',
    ],
    ['a commit already at that sha', 'lib%2Fsub', { branch: 'main', commit_sha: OLD }, `The submodule lib/sub is already at ${OLD}`],
    ['a missing branch', 'lib%2Fsub', { branch: 'nope', commit_sha: NEW }, 'You can only create or edit files when you are on a branch'],
    ['an empty branch', 'lib%2Fsub', { branch: '', commit_sha: NEW }, 'You can only create or edit files when you are on a branch'],
    ['a sha that is not one', 'lib%2Fsub', { branch: 'main', commit_sha: 'abc' }, 'Invalid parameters'],
  ])('answers 400 for %s', async (_case, path, body, message) => {
    expect(await app.put(`${url}/${path}`, body, { token: 'maintainer' })).toEqual(expect.objectContaining({ status: 400, body: { message } }));
  });

  it('requires its params, authentication and Developer access', async () => {
    expect(await app.put(`${url}/lib%2Fsub`, {}, { token: 'maintainer' })).toMatchObject({
      status: 400,
      body: { error: 'commit_sha is missing, branch is missing' },
    });
    expect(await app.put(`${url}/lib%2Fsub`, { branch: 'main', commit_sha: NEW })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await app.put(`${url}/lib%2Fsub`, { branch: 'main', commit_sha: NEW }, { token: 'reporter' })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(await app.put(`${url}/lib%2Fsub`, { branch: 'main', commit_sha: NEW }, { token: 'nonMember' })).toMatchObject({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
  });

  it('refuses while the repository is read-only', async () => {
    const repos = app.kernel.resolve(repositoriesServiceRef);
    await repos.setReadOnly([repository.id], true);
    try {
      expect(await app.put(`${url}/lib%2Fsub`, { branch: 'main', commit_sha: NEW }, { token: 'maintainer' })).toMatchObject({
        status: 400,
        body: { message: 'The repository is temporarily read-only. Please try again later.' },
      });
    } finally {
      await repos.setReadOnly([repository.id], false);
    }
  });
});
