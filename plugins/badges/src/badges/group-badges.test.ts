import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badgesPlugin } from '../plugin.js';

describe('group badges', () => {
  let app: TestApp;
  let base: string;
  let created: { id: number };

  const placeholders = { link_url: 'https://example.com/%{project_path}', image_url: 'https://example.com/%{project_id}.svg', name: 'Docs' };

  beforeAll(async () => {
    app = await createTestApp({ plugins: [badgesPlugin] });
    base = `/api/v4/groups/${app.group.id}/badges`;
  });
  afterAll(() => app.close());

  describe('writes', () => {
    it("adds a badge for the group's Owner, rendered with the group's first project", async () => {
      const res = await app.post(base, placeholders, { token: 'owner' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        name: 'Docs',
        link_url: placeholders.link_url,
        image_url: placeholders.image_url,
        rendered_link_url: 'https://example.com/test-group/test-project',
        rendered_image_url: `https://example.com/${app.project.id}.svg`,
        id: expect.any(Number),
        kind: 'group',
      });
      created = res.body;
    });

    it('refuses Maintainers and below (403: a group badge needs the Owner), strangers (404) and anonymous callers (401)', async () => {
      for (const token of ['maintainer', 'developer', 'guest']) {
        expect(await app.post(base, placeholders, { token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
        expect(await app.put(`${base}/${created.id}`, { name: 'x' }, { token })).toMatchObject({ status: 403 });
        expect(await app.delete(`${base}/${created.id}`, { token })).toMatchObject({ status: 403 });
      }
      expect(await app.post(base, placeholders, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
      expect(await app.post(base, placeholders, { token: null })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    });

    it('updates a badge for the Owner and refuses an invalid URL (400)', async () => {
      expect(await app.put(`${base}/${created.id}`, { name: 'Handbook' }, { token: 'owner' })).toMatchObject({
        status: 200,
        body: { name: 'Handbook', kind: 'group' },
      });
      expect(await app.put(`${base}/${created.id}`, { image_url: 'javascript:alert(1)' }, { token: 'owner' })).toMatchObject({
        status: 400,
        body: { message: { image_url: ['is blocked: Only allowed schemes are http, https'] } },
      });
      expect(await app.put(`${base}/999999`, { name: 'x' }, { token: 'owner' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    });

    it('renders URLs for the Owner only', async () => {
      const query = { link_url: 'https://x/%{project_namespace}', image_url: 'https://x/i' };
      expect(await app.get(`${base}/render`, { token: 'owner', query })).toMatchObject({
        status: 200,
        body: { name: null, link_url: query.link_url, rendered_link_url: 'https://x/test-group', rendered_image_url: 'https://x/i' },
      });
      expect(await app.get(`${base}/render`, { token: 'maintainer', query })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    });
  });

  describe('reads', () => {
    it("lists the group's own badges to its members, and hides a private group from others (404)", async () => {
      const res = await app.get(base, { token: 'guest' });
      expect(res).toMatchObject({ status: 200, body: [{ id: created.id, name: 'Handbook', kind: 'group' }] });
      expect(res.headers.get('x-total')).toBe('1');
      expect(await app.get(`${base}/${created.id}`, { token: 'guest' })).toMatchObject({ status: 200, body: { id: created.id } });
      expect(await app.get(base, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
      expect(await app.get(base, { token: null })).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
    });

    it('renders with the first project the caller can see, and leaves the URLs as written when there is none', async () => {
      const group = (await app.post('/api/v4/groups', { name: 'Open', path: 'open', visibility: 'public' }, { token: 'admin' })).body;
      const badge = (await app.post(`/api/v4/groups/${group.id}/badges`, placeholders, { token: 'admin' })).body;
      // No project yet: nothing to take values from.
      expect(badge).toMatchObject({ rendered_link_url: placeholders.link_url, rendered_image_url: placeholders.image_url });

      const hidden = (await app.post('/api/v4/projects', { name: 'Hidden', path: 'hidden', namespace_id: group.id, visibility: 'private' }, { token: 'admin' }))
        .body;
      const shown = (await app.post('/api/v4/projects', { name: 'Shown', path: 'shown', namespace_id: group.id, visibility: 'public' }, { token: 'admin' }))
        .body;
      const renderedFor = async (token: string | null) => (await app.get(`/api/v4/groups/${group.id}/badges`, { token })).body[0].rendered_link_url;
      expect(await renderedFor('admin')).toBe('https://example.com/open/hidden');
      expect(await renderedFor(null)).toBe('https://example.com/open/shown');
      expect(await renderedFor('guest')).toBe('https://example.com/open/shown');
      expect((await app.get(`/api/v4/groups/${group.id}/badges/${badge.id}`, { token: null })).body.rendered_image_url).toBe(
        `https://example.com/${shown.id}.svg`,
      );
      expect(hidden.id).toBeLessThan(shown.id);
    });

    it('filters by name', async () => {
      expect((await app.get(base, { token: 'guest', query: { name: 'Handbook' } })).body).toHaveLength(1);
      expect((await app.get(base, { token: 'guest', query: { name: 'Docs' } })).body).toHaveLength(0);
    });
  });

  it('deletes a badge for the Owner (204)', async () => {
    expect((await app.delete(`${base}/${created.id}`, { token: 'owner' })).status).toBe(204);
    expect((await app.get(base, { token: 'owner' })).body).toEqual([]);
  });
});
