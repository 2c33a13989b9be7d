/** Test helpers: an app with the repositories plugin and quick ways to put commits in a project. */
import { createTestApp, type TestApp, type TestAppOptions } from '@forgekit/plugin-core/testing';
import { repositoriesPlugin } from '../plugin.js';

export async function createRepoTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  return createTestApp({ ...options, plugins: [repositoriesPlugin, ...(options.plugins ?? [])] });
}

export interface CommitOptions {
  branch?: string;
  message?: string;
  startBranch?: string;
  token?: string;
}

/** Commits files (path → content) to a project through the API; returns the new commit. */
export async function commitFiles(app: TestApp, projectId: number, files: Record<string, string | null>, options: CommitOptions = {}) {
  const actions = [];
  for (const [path, content] of Object.entries(files)) {
    if (content === null) actions.push({ action: 'delete', file_path: path });
    else {
      const exists = await app.get(`/api/v4/projects/${projectId}/repository/files/${encodeURIComponent(path)}`, {
        token: 'maintainer',
        query: { ref: options.startBranch ?? options.branch ?? 'main' },
      });
      // Binary content travels base64-encoded: a NUL byte in a parameter is refused.
      const binary = content.includes('\u0000');
      actions.push({
        action: exists.status === 200 ? 'update' : 'create',
        file_path: path,
        ...(binary ? { content: Buffer.from(content).toString('base64'), encoding: 'base64' } : { content }),
      });
    }
  }
  const res = await app.post(
    `/api/v4/projects/${projectId}/repository/commits`,
    {
      branch: options.branch ?? 'main',
      commit_message: options.message ?? 'Change files',
      actions,
      ...(options.startBranch ? { start_branch: options.startBranch } : {}),
    },
    { token: options.token ?? 'maintainer' },
  );
  if (res.status !== 201) throw new Error(`commit failed: ${res.status} ${res.text}`);
  return res.body as { id: string; parent_ids: string[] };
}
