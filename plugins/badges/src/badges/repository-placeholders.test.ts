import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badgesPlugin } from '../plugin.js';
import { latestTagName } from './badge-renderer.js';

const ALL = [
  'project_path',
  'project_title',
  'project_name',
  'project_id',
  'project_namespace',
  'group_name',
  'service_server',
  'service_pages_domain',
  'default_branch',
  'commit_sha',
  'latest_tag',
];

/** A link naming every placeholder, one per query parameter. */
const everyPlaceholder = `https://example.com/badge?${ALL.map((name) => `${name}=%{${name}}`).join('&')}`;
const renderedParams = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe('placeholders from the project and its repository', () => {
  let app: TestApp;
  let project: { id: number };
  let badgesPath: string;

  const commit = async (file: string) =>
    (
      await app.post(
        `/api/v4/projects/${project.id}/repository/commits`,
        { branch: 'main', commit_message: `Add ${file}`, actions: [{ action: 'create', file_path: file, content: file }] },
        { token: 'maintainer' },
      )
    ).body as { id: string };

  beforeAll(async () => {
    app = await createTestApp({ plugins: [repositoriesPlugin, badgesPlugin], config: { plugins: { badges: { pagesHost: 'pages.example.com' } } } });
    const subgroup = (await app.post('/api/v4/groups', { name: 'Tools', path: 'tools', parent_id: app.group.id }, { token: 'owner' })).body;
    project = (await app.post('/api/v4/projects', { name: 'Deep Project', path: 'deep', namespace_id: subgroup.id }, { token: 'owner' })).body;
    badgesPath = `/api/v4/projects/${project.id}/badges`;
  });
  afterAll(() => app.close());

  it('leaves the repository placeholders as written while the repository is empty', async () => {
    const badge = (await app.post(badgesPath, { link_url: everyPlaceholder, image_url: 'https://example.com/%{commit_sha}.svg' }, { token: 'maintainer' }))
      .body;
    expect(badge.rendered_image_url).toBe('https://example.com/%{commit_sha}.svg');
    const params = renderedParams(badge.rendered_link_url);
    expect(params).toMatchObject({ commit_sha: '%{commit_sha}', latest_tag: '%{latest_tag}', project_path: 'test-group/tools/deep' });
  });

  it('renders every placeholder from real data: names, paths, hosts, the default branch head and the latest tag', async () => {
    await commit('one.txt');
    const head = await commit('two.txt');
    for (const tag of ['v1.0', 'v2.0']) {
      expect((await app.post(`/api/v4/projects/${project.id}/repository/tags`, { tag_name: tag, ref: 'main' }, { token: 'maintainer' })).status).toBe(201);
    }
    const [badge] = (await app.get(badgesPath, { token: 'guest' })).body;
    expect(renderedParams(badge.rendered_link_url)).toEqual({
      project_path: 'test-group/tools/deep',
      project_title: 'Deep Project',
      project_name: 'deep',
      project_id: String(project.id),
      project_namespace: 'test-group/tools',
      group_name: 'Test Group',
      service_server: 'localhost',
      service_pages_domain: 'pages.example.com',
      default_branch: 'main',
      commit_sha: head.id,
      // Both tags point at the head commit: the first by name among equals.
      latest_tag: 'v1.0',
    });
    expect(badge.rendered_link_url).toContain('group_name=Test%20Group');
    expect(badge.rendered_image_url).toBe(`https://example.com/${head.id}.svg`);
  });

  it("accepts GitLab's spellings of the host placeholders", async () => {
    const res = await app.get(`${badgesPath}/render`, {
      token: 'maintainer',
      query: { link_url: 'https://%{gitlab_server}/x', image_url: 'https://%{gitlab_pages_domain}/%{project_name}.png' },
    });
    expect(res.body).toMatchObject({ rendered_link_url: 'https://localhost/x', rendered_image_url: 'https://pages.example.com/deep.png' });
  });

  it('takes the latest tag by its commit date, then by name', () => {
    const tags = [
      { name: 'v2.0', committedDate: '2024-01-01T00:00:00Z' },
      { name: 'v1.5', committedDate: '2024-03-01T00:00:00+02:00' },
      { name: 'v1.4', committedDate: '2024-03-01T00:00:00+02:00' },
    ];
    expect(latestTagName(tags)).toBe('v1.4');
    expect(latestTagName(tags.slice(0, 1))).toBe('v2.0');
    expect(latestTagName([])).toBeNull();
  });
});
