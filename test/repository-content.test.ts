import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, failureOf, type Api } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

/** Files, blobs, tags, a commit's diff, branch protection and merged branch clean-up, through @gitbeaker/rest and plain requests. */
describe('repository content through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let admin: Api;
  let projectId: number;
  const call = async (method: string, path: string, body?: Record<string, unknown>) => {
    const res = await fetch(`${server.url}/api/v4/projects/${projectId}${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': server.rootToken, 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    const type = res.headers.get('content-type') ?? '';
    return { status: res.status, body: type.startsWith('application/json') ? ((await res.json()) as any) : await res.text() };
  };

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    projectId = ((await admin.Projects.create({ name: 'Content', initializeWithReadme: true })) as unknown as { id: number }).id;
  });
  afterAll(() => server?.close());

  it('creates, updates and deletes a file, each a commit', async () => {
    const created = await admin.RepositoryFiles.create(projectId, 'docs/guide.md', 'main', '# Guide\n', 'Add the guide');
    expect(created).toMatchObject({ file_path: 'docs/guide.md', branch: 'main' });
    const updated = await call('PUT', '/repository/files/docs%2Fguide.md', {
      branch: 'main',
      content: '# Guide\n\nMore.\n',
      commit_message: 'Expand the guide',
    });
    expect(updated).toMatchObject({ status: 200, body: { file_path: 'docs/guide.md', branch: 'main' } });
    expect(await admin.RepositoryFiles.showRaw(projectId, 'docs/guide.md', 'main')).toBe('# Guide\n\nMore.\n');

    await admin.RepositoryFiles.create(projectId, 'old.txt', 'main', 'old\n', 'Add an old file');
    expect((await call('DELETE', '/repository/files/old.txt', { branch: 'main', commit_message: 'Remove the old file' })).status).toBe(204);
    expect(await failureOf(admin.RepositoryFiles.show(projectId, 'old.txt', 'main'))).toMatchObject({ status: 404 });
    expect((await call('PUT', '/repository/files/missing.txt', { branch: 'main', content: 'x', commit_message: 'Nope' })).status).toBe(400);
  });

  it("reads a blob by its id, as JSON and raw, and a commit's diff", async () => {
    const file = await admin.RepositoryFiles.show(projectId, 'docs/guide.md', 'main');
    const blob = await call('GET', `/repository/blobs/${file.blob_id}`);
    expect(blob.body).toMatchObject({ sha: file.blob_id, encoding: 'base64', size: 15 });
    expect(Buffer.from(blob.body.content, 'base64').toString()).toBe('# Guide\n\nMore.\n');
    expect(await call('GET', `/repository/blobs/${file.blob_id}/raw`)).toEqual({ status: 200, body: '# Guide\n\nMore.\n' });
    expect((await call('GET', `/repository/blobs/${'0'.repeat(40)}`)).status).toBe(404);

    const diff = await call('GET', `/repository/commits/${file.last_commit_id}/diff`);
    expect(diff.status).toBe(200);
    expect(diff.body).toEqual([expect.objectContaining({ old_path: 'docs/guide.md', new_path: 'docs/guide.md', new_file: false, deleted_file: false })]);
    expect(diff.body[0].diff).toContain('+More.');
  });

  it('tags a commit, lists, shows and deletes the tag', async () => {
    const tag = await admin.Tags.create(projectId, 'v1.0.0', 'main', { message: 'First release' });
    expect(tag).toMatchObject({ name: 'v1.0.0', message: 'First release', protected: false });
    expect((await admin.Tags.all(projectId)).map((t) => t.name)).toEqual(['v1.0.0']);
    expect((await call('GET', '/repository/tags/v1.0.0')).body).toMatchObject({ name: 'v1.0.0', target: expect.any(String) });
    expect((await call('DELETE', '/repository/tags/v1.0.0')).status).toBe(204);
    expect((await call('GET', '/repository/tags/v1.0.0')).status).toBe(404);
  });

  it('protects and unprotects a branch, deletes one, and cleans up merged branches but protected ones', async () => {
    for (const name of ['merged-a', 'merged-b', 'kept', 'gone']) await admin.Branches.create(projectId, name, 'main');
    // A branch counts as merged once the default branch has moved past it.
    await admin.RepositoryFiles.create(projectId, 'later.txt', 'main', 'later\n', 'Move main on');
    const protectedBranch = await call('PUT', '/repository/branches/kept/protect', { developers_can_push: true });
    expect(protectedBranch.body).toMatchObject({ name: 'kept', protected: true, developers_can_push: true });
    expect((await call('DELETE', '/repository/branches/gone')).status).toBe(204);
    expect(await failureOf(admin.Branches.show(projectId, 'gone'))).toMatchObject({ status: 404 });

    expect(await call('DELETE', '/repository/merged_branches')).toEqual({ status: 202, body: { message: '202 Accepted' } });
    expect((await admin.Branches.all(projectId)).map((branch) => branch.name).sort()).toEqual(['kept', 'main']);
    expect((await call('PUT', '/repository/branches/kept/unprotect')).body).toMatchObject({ name: 'kept', protected: false });
  });
});
