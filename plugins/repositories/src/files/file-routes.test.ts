import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { commitFiles, createRepoTestApp } from '../testing/repo-test-app.js';

describe('repository files', () => {
  let app: TestApp;
  let base: string;
  let commit: { id: string };

  beforeAll(async () => {
    app = await createRepoTestApp();
    base = `/api/v4/projects/${app.project.id}/repository/files`;
    commit = await commitFiles(app, app.project.id, { 'docs/guide.md': '# Guide\n', 'bin.dat': '\u0000\u0001binary' });
  });
  afterAll(() => app.close());

  describe('GET /projects/:id/repository/files/:file_path', () => {
    it('returns the file with its metadata and base64 content, and the same in headers', async () => {
      const res = await app.get(`${base}/docs%2Fguide.md`, { token: 'reporter', query: { ref: 'main' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        file_name: 'guide.md',
        file_path: 'docs/guide.md',
        size: 8,
        encoding: 'base64',
        content: Buffer.from('# Guide\n').toString('base64'),
        ref: 'main',
        commit_id: commit.id,
        last_commit_id: commit.id,
        execute_filemode: false,
      });
      expect(res.body.content_sha256).toBe(createHash('sha256').update('# Guide\n').digest('hex'));
      expect(res.body.blob_id).toMatch(/^[0-9a-f]{40}$/);
      expect(res.headers.get('x-service-file-path')).toBe('docs/guide.md');
      expect(res.headers.get('x-service-last-commit-id')).toBe(commit.id);
    });

    it('answers GitLab’s errors', async () => {
      expect(await app.get(`${base}/docs%2Fguide.md`, { token: 'reporter' })).toMatchObject({ status: 400, body: { error: 'ref is missing, ref is empty' } });
      expect(await app.get(`${base}/docs%2Fguide.md`, { token: 'reporter', query: { ref: 'nope' } })).toMatchObject({
        status: 404,
        body: { message: '404 Commit Not Found' },
      });
      expect(await app.get(`${base}/nope.md`, { token: 'reporter', query: { ref: 'main' } })).toMatchObject({
        status: 404,
        body: { message: '404 File Not Found' },
      });
      expect(await app.get(`${base}/..%2Fetc%2Fpasswd`, { token: 'reporter', query: { ref: 'main' } })).toMatchObject({
        status: 400,
        body: { error: 'file_path should be a valid file path' },
      });
      expect(await app.get(`${base}/docs%2Fguide.md`, { token: 'guest', query: { ref: 'main' } })).toMatchObject({ status: 403 });
    });
  });

  describe('GET /projects/:id/repository/files/:file_path/raw', () => {
    it('returns the bytes, on the default branch unless a ref is given', async () => {
      const text = await app.get(`${base}/docs%2Fguide.md/raw`, { token: 'reporter' });
      expect(text.status).toBe(200);
      expect(text.text).toBe('# Guide\n');
      expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      const binary = await app.get(`${base}/bin.dat/raw`, { token: 'reporter', query: { ref: commit.id } });
      expect(binary.headers.get('content-type')).toBe('application/octet-stream');
      expect(await app.get(`${base}/missing/raw`, { token: 'reporter' })).toMatchObject({ status: 404, body: { message: '404 File Not Found' } });
    });
  });

  describe('GET /projects/:id/repository/blobs/:sha', () => {
    it('returns a blob by id, base64 or raw, and 404 Blob Not Found otherwise', async () => {
      const file = await app.get(`${base}/docs%2Fguide.md`, { token: 'reporter', query: { ref: 'main' } });
      const blobs = `/api/v4/projects/${app.project.id}/repository/blobs`;
      const blob = await app.get(`${blobs}/${file.body.blob_id}`, { token: 'reporter' });
      expect(blob.body).toEqual({ size: 8, encoding: 'base64', content: Buffer.from('# Guide\n').toString('base64'), sha: file.body.blob_id });
      expect((await app.get(`${blobs}/${file.body.blob_id}/raw`, { token: 'reporter' })).text).toBe('# Guide\n');
      expect(await app.get(`${blobs}/${commit.id}`, { token: 'reporter' })).toMatchObject({ status: 404, body: { message: '404 Blob Not Found' } });
      expect(await app.get(`${blobs}/nothex`, { token: 'reporter' })).toMatchObject({ status: 404, body: { message: '404 Blob Not Found' } });
    });
  });

  describe('POST, PUT and DELETE /projects/:id/repository/files/:file_path', () => {
    it('creates, updates and deletes a file, one commit each', async () => {
      const created = await app.post(`${base}/new%2Ffile.txt`, { branch: 'main', content: 'one', commit_message: 'Add file' }, { token: 'maintainer' });
      expect(created).toMatchObject({ status: 201, body: { file_path: 'new/file.txt', branch: 'main' } });
      const updated = await app.put(
        `${base}/new%2Ffile.txt`,
        { branch: 'main', content: Buffer.from('two').toString('base64'), encoding: 'base64', commit_message: 'Update file', execute_filemode: true },
        { token: 'maintainer' },
      );
      expect(updated).toMatchObject({ status: 200, body: { file_path: 'new/file.txt', branch: 'main' } });
      const read = await app.get(`${base}/new%2Ffile.txt`, { token: 'reporter', query: { ref: 'main' } });
      expect(Buffer.from(read.body.content, 'base64').toString()).toBe('two');
      expect(read.body.execute_filemode).toBe(true);
      expect((await app.delete(`${base}/new%2Ffile.txt`, { token: 'maintainer', query: { branch: 'main', commit_message: 'Remove file' } })).status).toBe(204);
      expect((await app.get(`${base}/new%2Ffile.txt`, { token: 'reporter', query: { ref: 'main' } })).status).toBe(404);
    });

    it('answers 400s for existing, missing and changed files, and 403 for reporters', async () => {
      expect(await app.post(`${base}/docs%2Fguide.md`, { branch: 'main', content: 'x', commit_message: 'm' }, { token: 'maintainer' })).toMatchObject({
        status: 400,
        body: { message: 'A file with this name already exists' },
      });
      expect(await app.put(`${base}/missing.md`, { branch: 'main', content: 'x', commit_message: 'm' }, { token: 'maintainer' })).toMatchObject({
        status: 400,
        body: { message: "A file with this name doesn't exist" },
      });
      expect(
        await app.put(
          `${base}/docs%2Fguide.md`,
          { branch: 'main', content: 'x', commit_message: 'm', last_commit_id: 'a'.repeat(40) },
          { token: 'maintainer' },
        ),
      ).toMatchObject({
        status: 400,
        body: { message: 'The file has changed since you started editing it: docs/guide.md' },
      });
      expect(await app.post(`${base}/x.md`, { branch: 'main', content: 'x' }, { token: 'maintainer' })).toMatchObject({
        status: 400,
        body: { error: 'commit_message is missing, commit_message is empty' },
      });
      expect(await app.post(`${base}/x.md`, { branch: 'main', content: 'x', commit_message: 'm' }, { token: 'reporter' })).toMatchObject({ status: 403 });
    });
  });
});
