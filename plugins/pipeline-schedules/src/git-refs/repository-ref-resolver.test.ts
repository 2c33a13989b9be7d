import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NIGHTLY, newProject, projectSchedulesPath, schedulePlugins } from '../testing/schedule-fixtures.js';

let app: TestApp;
let projectId: number;
let mainSha: string;

async function created(res: { status: number; text: string; body: any }) {
  if (res.status !== 201) throw new Error(`setup gave ${res.status} ${res.text}`);
  return res.body;
}

/** A repository with the branches `main` and `both` and the tags `v1.0` and `both`. */
beforeAll(async () => {
  app = await createTestApp({ plugins: [repositoriesPlugin, ...schedulePlugins()] });
  projectId = await newProject(app, 'with-repository');
  const repo = `/api/v4/projects/${projectId}/repository`;
  const commit = await created(
    await app.post(
      `${repo}/commits`,
      { branch: 'main', commit_message: 'Start', actions: [{ action: 'create', file_path: 'README.md', content: 'hi' }] },
      { token: 'maintainer' },
    ),
  );
  mainSha = commit.id;
  await created(await app.post(`${repo}/branches`, { branch: 'both', ref: 'main' }, { token: 'maintainer' }));
  await created(await app.post(`${repo}/tags`, { tag_name: 'v1.0', ref: 'main' }, { token: 'maintainer' }));
  await created(await app.post(`${repo}/tags`, { tag_name: 'both', ref: 'main', message: 'annotated' }, { token: 'maintainer' }));
});
afterAll(() => app?.close());

const createIn = (project: number, ref: string) => app.post(projectSchedulesPath(project), { ...NIGHTLY, ref }, { token: 'developer' });

describe('refs read from the project repository', () => {
  it('expands a short name to the branch or the tag that exists', async () => {
    expect((await createIn(projectId, 'main')).body.ref).toBe('refs/heads/main');
    expect((await createIn(projectId, 'v1.0')).body.ref).toBe('refs/tags/v1.0');
  });

  it('refuses a name that is both a branch and a tag, or neither, as ambiguous', async () => {
    for (const ref of ['both', 'missing', 'main~1', 'main^{commit}']) {
      expect(await createIn(projectId, ref)).toMatchObject({ status: 400, body: { message: { ref: ['is ambiguous'] } } });
    }
  });

  it('refuses every short name in a project whose repository is empty, and keeps full refs', async () => {
    const empty = await newProject(app, 'no-commits');
    expect(await createIn(empty, 'main')).toMatchObject({ status: 400, body: { message: { ref: ['is ambiguous'] } } });
    expect((await createIn(empty, 'refs/heads/main')).body.ref).toBe('refs/heads/main');
  });

  it('records the commit of the ref on the pipelines a schedule starts, annotated tags included', async () => {
    const schedule = (await createIn(projectId, 'refs/tags/both')).body;
    expect((await app.post(`${projectSchedulesPath(projectId)}/${schedule.id}/play`, undefined, { token: 'developer' })).status).toBe(201);
    const details = await app.get(`${projectSchedulesPath(projectId)}/${schedule.id}`, { token: 'developer' });
    expect(details.body.last_pipeline).toMatchObject({ ref: 'both', sha: mainSha, source: 'scheduled' });
  });
});
