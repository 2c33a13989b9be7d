import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { corePlugin } from '@forgekit/plugin-core';
import { repositoriesPlugin, RepositoriesConfigSchema } from '@forgekit/plugin-repositories';
import { storageMovesPlugin } from '@forgekit/plugin-storage-moves';
import { submodulesPlugin } from '@forgekit/plugin-submodules';
import type { ForgePlugin } from '@forgekit/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, failureOf, type Api } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { gitCli } from './support/git-cli.js';

/** The repositories plugin with a second storage (`<dataDir>/second-storage`), as a host would configure it. */
const repositoriesWithTwoStorages: ForgePlugin<any> = {
  ...repositoriesPlugin,
  config: v.pipe(
    RepositoriesConfigSchema,
    v.transform((config) => ({ ...config, storages: { second: 'second-storage', ...config.storages } })),
  ),
};

/**
 * A team's repository workflow: files and branches through the API, clone, push and
 * pull with the real git client, a submodule bumped through the API, and the project
 * moved to another storage without losing anything.
 */
describe('repositories through @gitbeaker/rest and git', () => {
  let server: ListeningServer;
  let admin: Api;
  let work: string;
  let project: { id: number; http_url_to_repo: string; default_branch: string };
  let library: { id: number; http_url_to_repo: string };

  const gitIn = (cwd: string, ...args: string[]) => gitCli(work).ok(cwd, ...args);
  /** The clone URL with the token as the Basic password. */
  const authed = (url: string) => url.replace('://', `://root:${server.rootToken}@`);

  beforeAll(async () => {
    server = await startListeningServer([corePlugin, repositoriesWithTwoStorages, submodulesPlugin, storageMovesPlugin]);
    admin = clientFor(server, server.rootToken);
    work = await mkdtemp(join(tmpdir(), 'forgekit-repos-blackbox-'));
    const group = await admin.Groups.create('Acme', 'acme');
    project = (await admin.Projects.create({ name: 'App', path: 'app', namespaceId: group.id, initializeWithReadme: true })) as unknown as typeof project;
    library = (await admin.Projects.create({ name: 'Lib', path: 'lib', namespaceId: group.id, initializeWithReadme: true })) as unknown as typeof library;
  });
  afterAll(async () => {
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('creates the project repository with a README on the default branch', async () => {
    expect(project.default_branch).toBe('main');
    expect(project.http_url_to_repo).toBe(`${server.url}/acme/app.git`);
    const shown = await admin.Projects.show(project.id);
    expect(shown.empty_repo).toBe(false);
    const readme = await admin.RepositoryFiles.show(project.id, 'README.md', 'main');
    expect(Buffer.from(readme.content, 'base64').toString()).toBe('# App\n');
  });

  it('commits several actions, branches, tags, and reads the tree, files and comparisons back', async () => {
    const commit = await admin.Commits.create(project.id, 'main', 'Add sources', [
      { action: 'create', filePath: 'src/index.ts', content: 'export {};\n' },
      { action: 'update', filePath: 'README.md', content: '# App\n\nReadable.\n' },
    ]);
    expect(commit).toMatchObject({ title: 'Add sources', committer_name: 'Administrator' });
    const branch = await admin.Branches.create(project.id, 'feature/x', 'main');
    expect(branch).toMatchObject({ name: 'feature/x', default: false, merged: false });
    await admin.Commits.create(project.id, 'feature/x', 'Feature work', [{ action: 'create', filePath: 'src/feature.ts', content: 'export const x = 1;\n' }]);
    expect((await admin.Branches.all(project.id)).map((b) => b.name)).toEqual(['feature/x', 'main']);
    const tag = await admin.Tags.create(project.id, 'v1.0.0', 'main', { message: 'First release' });
    expect(tag).toMatchObject({ name: 'v1.0.0', message: 'First release', commit: { id: commit.id } });

    const tree = await admin.Repositories.allRepositoryTrees(project.id, { recursive: true });
    expect(tree.map((entry) => entry.path).sort()).toEqual(['README.md', 'src', 'src/index.ts']);
    expect(await admin.RepositoryFiles.showRaw(project.id, 'src/index.ts', 'main')).toBe('export {};\n');
    const compare = await admin.Repositories.compare(project.id, 'main', 'feature/x');
    expect(compare.commits?.map((c) => c.title)).toEqual(['Feature work']);
    expect(compare.diffs?.map((d) => d.new_path)).toEqual(['src/feature.ts']);

    expect(await failureOf(admin.Commits.create(project.id, 'main', 'Again', [{ action: 'create', filePath: 'README.md', content: 'x' }]))).toEqual({
      status: 400,
      description: 'A file with this name already exists',
    });
    expect(await failureOf(admin.Branches.show(project.id, 'nope'))).toEqual({ status: 404, description: '404 Branch Not Found' });
  });

  it('clones with git, pushes a commit the API sees, and pulls one the API made', async () => {
    const dir = join(work, 'app');
    await gitIn(work, 'clone', '--quiet', authed(project.http_url_to_repo), dir);
    expect(await readFile(join(dir, 'README.md'), 'utf8')).toBe('# App\n\nReadable.\n');
    await writeFile(join(dir, 'pushed.md'), 'from git\n');
    await gitIn(dir, 'add', 'pushed.md');
    await gitIn(dir, 'commit', '--quiet', '-m', 'Pushed with git');
    const sha = await gitIn(dir, 'rev-parse', 'HEAD');
    await gitIn(dir, 'push', '--quiet', 'origin', 'main');
    expect(await admin.Commits.show(project.id, 'main')).toMatchObject({ id: sha, title: 'Pushed with git', author_name: 'Dev' });

    const apiCommit = await admin.Commits.create(project.id, 'main', 'Made through the API', [
      { action: 'create', filePath: 'api.md', content: 'from the api\n' },
    ]);
    await gitIn(dir, 'pull', '--quiet', '--ff-only', 'origin', 'main');
    expect(await gitIn(dir, 'rev-parse', 'HEAD')).toBe(apiCommit.id);
    expect(await readFile(join(dir, 'api.md'), 'utf8')).toBe('from the api\n');
  });

  it('bumps a real submodule gitlink through the API', async () => {
    const dir = join(work, 'app');
    const libDir = join(work, 'lib');
    await gitIn(work, 'clone', '--quiet', authed(library.http_url_to_repo), libDir);
    const firstLib = await gitIn(libDir, 'rev-parse', 'HEAD');
    await gitIn(dir, '-c', 'protocol.file.allow=always', 'submodule', 'add', '--quiet', libDir, 'vendor/lib');
    await gitIn(dir, 'commit', '--quiet', '-m', 'Add the library as a submodule');
    await gitIn(dir, 'push', '--quiet', 'origin', 'main');

    await writeFile(join(libDir, 'more.md'), 'more\n');
    await gitIn(libDir, 'add', 'more.md');
    await gitIn(libDir, 'commit', '--quiet', '-m', 'More library');
    await gitIn(libDir, 'push', '--quiet', 'origin', 'main');
    const nextLib = await gitIn(libDir, 'rev-parse', 'HEAD');
    expect(nextLib).not.toBe(firstLib);

    const bumped = await admin.RepositorySubmodules.edit(project.id, 'vendor/lib', 'main', nextLib);
    expect(bumped).toMatchObject({ title: `Update submodule vendor/lib with oid ${nextLib}`, committer_name: 'Administrator' });
    await gitIn(dir, 'pull', '--quiet', '--ff-only', 'origin', 'main');
    expect(await gitIn(dir, 'ls-tree', 'HEAD', 'vendor/lib')).toBe(`160000 commit ${nextLib}\tvendor/lib`);

    expect(await failureOf(admin.RepositorySubmodules.edit(project.id, 'vendor/lib', 'main', nextLib))).toEqual({
      status: 400,
      description: `The submodule vendor/lib is already at ${nextLib}`,
    });
    expect(await failureOf(admin.RepositorySubmodules.edit(project.id, 'README.md', 'main', nextLib))).toEqual({
      status: 400,
      description: 'Invalid submodule path',
    });
  });

  it('moves the project to another storage without losing anything, and git keeps working', async () => {
    const dir = join(work, 'app');
    const before = await admin.Commits.all(project.id, { refName: 'main', perPage: 100 });
    const scheduled = await admin.ProjectRepositoryStorageMoves.schedule('default', { projectId: project.id, destinationStorageName: 'second' });
    expect(scheduled).toMatchObject({ state: 'scheduled', source_storage_name: 'default', destination_storage_name: 'second' });
    let move = scheduled;
    for (let attempt = 0; attempt < 1500 && !['finished', 'failed', 'cleanup failed'].includes(move.state as string); attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      move = await admin.ProjectRepositoryStorageMoves.show(scheduled.id as number, { projectId: project.id });
    }
    expect(move.state).toBe('finished');
    expect((await admin.Projects.show(project.id)).repository_storage).toBe('second');
    expect((await admin.Projects.all({ repositoryStorage: 'default' })).map((p) => p.id)).not.toContain(project.id);
    expect(await admin.Commits.all(project.id, { refName: 'main', perPage: 100 })).toEqual(before);

    await writeFile(join(dir, 'after-move.md'), 'still works\n');
    await gitIn(dir, 'add', 'after-move.md');
    await gitIn(dir, 'commit', '--quiet', '-m', 'After the move');
    await gitIn(dir, 'push', '--quiet', 'origin', 'main');
    expect((await admin.Commits.show(project.id, 'main')).title).toBe('After the move');
    const all = await admin.ProjectRepositoryStorageMoves.all();
    expect(all.map((m) => m.id)).toContain(scheduled.id);
  });
});
