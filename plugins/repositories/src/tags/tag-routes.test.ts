import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@forgekit/plugin-core/testing';
import { commitFiles, createRepoTestApp } from '../testing/repo-test-app.js';

describe('tags', () => {
  let app: TestApp;
  let url: string;
  let first: { id: string };
  let second: { id: string };

  beforeAll(async () => {
    app = await createRepoTestApp();
    url = `/api/v4/projects/${app.project.id}/repository/tags`;
    first = await commitFiles(app, app.project.id, { 'a.txt': 'a' }, { message: 'First' });
    second = await commitFiles(app, app.project.id, { 'b.txt': 'b' }, { message: 'Second' });
  });
  afterAll(() => app.close());

  it('creates lightweight and annotated tags', async () => {
    const light = await app.post(url, { tag_name: 'v1.9', ref: first.id }, { token: 'developer' });
    expect(light.status).toBe(201);
    expect(light.body).toMatchObject({
      name: 'v1.9',
      message: '',
      target: first.id,
      release: null,
      protected: false,
      created_at: null,
      commit: { id: first.id, title: 'First' },
    });
    const annotated = await app.post(url, { tag_name: 'v1.10', ref: 'main', message: '  Release 1.10  ' }, { token: 'developer' });
    expect(annotated.status).toBe(201);
    expect(annotated.body).toMatchObject({ name: 'v1.10', message: 'Release 1.10', commit: { id: second.id } });
    expect(annotated.body.target).not.toBe(second.id);
    expect(annotated.body.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('refuses bad names (400), existing tags (409) and unknown targets (400)', async () => {
    expect(await app.post(url, { tag_name: 'bad tag', ref: 'main' }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: 'Tag name invalid' },
    });
    expect(await app.post(url, { tag_name: 'v1.9', ref: 'main' }, { token: 'developer' })).toMatchObject({
      status: 409,
      body: { message: 'Tag v1.9 already exists' },
    });
    expect(await app.post(url, { tag_name: 'v2', ref: 'nope' }, { token: 'developer' })).toMatchObject({
      status: 400,
      body: { message: 'Target nope is invalid' },
    });
    expect(await app.post(url, { ref: 'main' }, { token: 'developer' })).toMatchObject({ status: 400, body: { error: 'tag_name is missing' } });
    // GitLab declares tag_name and ref without allow_blank: blank values reach the tag service.
    expect(await app.post(url, { tag_name: '', ref: 'main' }, { token: 'developer' })).toMatchObject({ status: 400, body: { message: 'Tag name invalid' } });
    expect(await app.post(url, { tag_name: 'v3', ref: 'main' }, { token: 'reporter' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  });

  it('lists tags by commit date, name or version, and searches', async () => {
    const names = async (query: Record<string, string>) => (await app.get(url, { token: 'reporter', query })).body.map((tag: { name: string }) => tag.name);
    expect(await names({ order_by: 'name', sort: 'asc' })).toEqual(['v1.10', 'v1.9']);
    expect(await names({ order_by: 'version', sort: 'asc' })).toEqual(['v1.9', 'v1.10']);
    expect(await names({ order_by: 'version' })).toEqual(['v1.10', 'v1.9']);
    expect(await names({ search: '.10' })).toEqual(['v1.10']);
    expect((await app.get(url, { token: 'reporter', query: { order_by: 'size' } })).body).toEqual({ error: 'order_by does not have a valid value' });
    const listed = await app.get(url, { token: 'reporter' });
    expect(listed.headers.get('x-total')).toBe('2');
  });

  it('shows and deletes a tag', async () => {
    expect((await app.get(`${url}/v1.9`, { token: 'reporter' })).body).toMatchObject({ name: 'v1.9', commit: { id: first.id } });
    expect(await app.get(`${url}/nope`, { token: 'reporter' })).toMatchObject({ status: 404, body: { message: '404 Tag Not Found' } });
    expect((await app.delete(`${url}/v1.9`, { token: 'developer' })).status).toBe(204);
    expect(await app.delete(`${url}/v1.9`, { token: 'developer' })).toMatchObject({ status: 404, body: { message: '404 Tag Not Found' } });
  });
});
