import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadgeEntity } from '../entities/badge.js';
import { badgesPlugin } from '../plugin.js';

const KEYS = ['name', 'link_url', 'image_url', 'rendered_link_url', 'rendered_image_url', 'id', 'kind'];

describe('project badges', () => {
  let app: TestApp;
  let base: string;
  let subgroup: { id: number };
  let deep: { id: number };
  let topBadge: { id: number };
  let subBadge: { id: number };
  let own: { id: number; link_url: string };

  const badge = (n: number) => ({ link_url: `https://example.com/${n}`, image_url: `https://img.example.com/${n}.svg` });

  beforeAll(async () => {
    app = await createTestApp({ plugins: [badgesPlugin] });
    base = `/api/v4/projects/${app.project.id}/badges`;
    subgroup = (await app.post('/api/v4/groups', { name: 'Sub', path: 'sub', parent_id: app.group.id }, { token: 'owner' })).body;
    deep = (await app.post('/api/v4/projects', { name: 'Deep Project', path: 'deep', namespace_id: subgroup.id }, { token: 'owner' })).body;
    topBadge = (await app.post(`/api/v4/groups/${app.group.id}/badges`, { ...badge(1), name: 'Top' }, { token: 'owner' })).body;
    subBadge = (await app.post(`/api/v4/groups/${subgroup.id}/badges`, { ...badge(2), name: 'Sub' }, { token: 'owner' })).body;
  });
  afterAll(() => app.close());

  describe('POST /projects/:id/badges', () => {
    it('adds a badge for a Maintainer and answers it with its placeholders rendered', async () => {
      const res = await app.post(
        base,
        {
          name: 'Pipeline',
          link_url: 'https://ci.example.com/%{project_path}/-/commits/%{default_branch}',
          image_url: ' https://ci.example.com/%{project_id}/badge.svg ',
        },
        { token: 'maintainer' },
      );
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(KEYS);
      expect(res.body).toEqual({
        name: 'Pipeline',
        link_url: 'https://ci.example.com/%{project_path}/-/commits/%{default_branch}',
        image_url: 'https://ci.example.com/%{project_id}/badge.svg',
        rendered_link_url: 'https://ci.example.com/test-group/test-project/-/commits/%{default_branch}',
        rendered_image_url: `https://ci.example.com/${app.project.id}/badge.svg`,
        id: expect.any(Number),
        kind: 'project',
      });
      own = res.body;
    });

    it('takes a badge without a name', async () => {
      const res = await app.post(base, badge(3), { token: 'owner' });
      expect(res).toMatchObject({ status: 201, body: { name: null, link_url: 'https://example.com/3', rendered_link_url: 'https://example.com/3' } });
    });

    it('refuses Developers and below (403), strangers (404) and anonymous callers (401)', async () => {
      for (const token of ['developer', 'reporter', 'guest']) {
        expect(await app.post(base, badge(9), { token })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      }
      expect(await app.post(base, badge(9), { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      expect(await app.post(base, badge(9), { token: null })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    });

    it('checks params before the project, as GitLab does: missing URLs are 400 whoever asks', async () => {
      expect(await app.post(base, { image_url: 'https://x' }, { token: 'maintainer' })).toMatchObject({ status: 400, body: { error: 'link_url is missing' } });
      expect(await app.post(base, {}, { token: 'developer' })).toMatchObject({ status: 400, body: { error: 'link_url is missing, image_url is missing' } });
    });

    it('refuses URLs that are not http or https with the model errors (400)', async () => {
      expect(await app.post(base, { link_url: 'whatever', image_url: 'ftp://x/y.png' }, { token: 'maintainer' })).toMatchObject({
        status: 400,
        body: { message: { link_url: ['is blocked: Only allowed schemes are http, https'], image_url: ['is blocked: Only allowed schemes are http, https'] } },
      });
      expect(await app.post(base, { link_url: '  ', image_url: 'https://x' }, { token: 'maintainer' })).toMatchObject({
        status: 400,
        body: { message: { link_url: ['must be a valid URL'] } },
      });
      expect(await app.post(base, { ...badge(9), name: 'n'.repeat(256) }, { token: 'maintainer' })).toMatchObject({
        status: 400,
        body: { message: { name: ['is too long (maximum is 255 characters)'] } },
      });
    });
  });

  describe('GET /projects/:id/badges', () => {
    it("lists the project's badges with its group's badges, oldest first, to whoever sees it", async () => {
      for (const token of ['guest', 'maintainer', 'admin']) {
        const res = await app.get(base, { token });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-total')).toBe('3');
        // The subgroup's badge is not above this project: it is left out.
        expect(res.body.map((item: { id: number; kind: string }) => [item.id, item.kind])).toEqual([
          [topBadge.id, 'group'],
          [own.id, 'project'],
          [expect.any(Number), 'project'],
        ]);
      }
    });

    it("shows a subgroup's project the badges of every group above it", async () => {
      const mine = (await app.post(`/api/v4/projects/${deep.id}/badges`, badge(4), { token: 'owner' })).body;
      const res = await app.get(`/api/v4/projects/${deep.id}/badges`, { token: 'guest' });
      expect(res.body.map((item: { id: number }) => item.id)).toEqual([topBadge.id, subBadge.id, mine.id]);
      expect(res.body[1]).toMatchObject({ name: 'Sub', kind: 'group', rendered_link_url: 'https://example.com/2' });
    });

    it('filters by exact name, case-sensitive', async () => {
      expect((await app.get(base, { token: 'guest', query: { name: 'Pipeline' } })).body.map((item: { id: number }) => item.id)).toEqual([own.id]);
      expect((await app.get(base, { token: 'guest', query: { name: 'Top' } })).body.map((item: { id: number }) => item.id)).toEqual([topBadge.id]);
      expect((await app.get(base, { token: 'guest', query: { name: 'pipeline' } })).body).toEqual([]);
    });

    it('paginates', async () => {
      const res = await app.get(base, { token: 'guest', query: { per_page: 2, page: 2 } });
      expect(res.body.map((item: { link_url: string }) => item.link_url)).toEqual(['https://example.com/3']);
      expect(res.headers.get('x-page')).toBe('2');
      expect(res.headers.get('x-total-pages')).toBe('2');
    });

    it('hides a private project from strangers and anonymous callers (404), and shows a public one to anyone', async () => {
      expect(await app.get(base, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      expect(await app.get(base, { token: null })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      const group = (await app.post('/api/v4/groups', { name: 'Open', path: 'open', visibility: 'public' }, { token: 'admin' })).body;
      const open = (await app.post('/api/v4/projects', { name: 'Open', path: 'open', namespace_id: group.id, visibility: 'public' }, { token: 'admin' })).body;
      await app.post(`/api/v4/projects/${open.id}/badges`, { link_url: 'https://x/%{project_path}', image_url: 'https://x/i' }, { token: 'admin' });
      const res = await app.get(`/api/v4/projects/${open.id}/badges`, { token: null });
      expect(res).toMatchObject({ status: 200, body: [{ rendered_link_url: 'https://x/open/open' }] });
    });
  });

  describe('GET /projects/:id/badges/:badge_id', () => {
    it("shows the project's own badges and its groups' badges", async () => {
      expect(await app.get(`${base}/${own.id}`, { token: 'guest' })).toMatchObject({ status: 200, body: { id: own.id, kind: 'project', name: 'Pipeline' } });
      expect(await app.get(`${base}/${topBadge.id}`, { token: 'guest' })).toMatchObject({ status: 200, body: { id: topBadge.id, kind: 'group' } });
    });

    it("answers 404 Not found for an unknown badge or another project's", async () => {
      const other = (await app.get(`/api/v4/projects/${deep.id}/badges`, { token: 'owner' })).body.at(-1);
      expect(await app.get(`${base}/${other.id}`, { token: 'guest' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
      expect(await app.get(`${base}/999999`, { token: 'guest' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
      expect(await app.get(`${base}/x`, { token: 'guest' })).toMatchObject({ status: 400, body: { error: 'badge_id is invalid' } });
      expect(await app.get(`${base}/${own.id}`, { token: 'nonMember' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    });
  });

  describe('PUT /projects/:id/badges/:badge_id', () => {
    it('changes what was sent, keeps the rest, and renders again', async () => {
      const res = await app.put(`${base}/${own.id}`, { name: 'Builds', image_url: 'https://ci.example.com/%{project_name}.svg' }, { token: 'maintainer' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        id: own.id,
        name: 'Builds',
        link_url: own.link_url,
        image_url: 'https://ci.example.com/%{project_name}.svg',
        rendered_image_url: 'https://ci.example.com/test-project.svg',
        kind: 'project',
      });
      expect((await app.put(`${base}/${own.id}`, {}, { token: 'maintainer' })).body).toMatchObject({ name: 'Builds' });
      expect((await app.put(`${base}/${own.id}`, { name: null }, { token: 'maintainer' })).body).toMatchObject({ name: null });
    });

    it('refuses an invalid URL (400) and changes nothing', async () => {
      expect(await app.put(`${base}/${own.id}`, { link_url: 'whatever', name: 'Broken' }, { token: 'maintainer' })).toMatchObject({
        status: 400,
        body: { message: { link_url: ['is blocked: Only allowed schemes are http, https'] } },
      });
      expect((await app.get(`${base}/${own.id}`, { token: 'guest' })).body).toMatchObject({ name: null, link_url: own.link_url });
    });

    it("refuses Developers (403), and leaves the groups' badges to the group (404 Not found)", async () => {
      expect(await app.put(`${base}/${own.id}`, { name: 'x' }, { token: 'developer' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      expect(await app.put(`${base}/${topBadge.id}`, { name: 'Hijacked' }, { token: 'maintainer' })).toMatchObject({
        status: 404,
        body: { message: '404 Not found' },
      });
      expect((await app.get(`/api/v4/groups/${app.group.id}/badges/${topBadge.id}`, { token: 'owner' })).body.name).toBe('Top');
    });
  });

  describe('GET /projects/:id/badges/render', () => {
    it('renders URLs without keeping them, for Maintainers', async () => {
      const res = await app.get(`${base}/render`, {
        token: 'maintainer',
        query: { link_url: 'https://x/%{project_path}', image_url: 'https://x/%{project_id}.svg' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        name: null,
        link_url: 'https://x/%{project_path}',
        image_url: 'https://x/%{project_id}.svg',
        rendered_link_url: 'https://x/test-group/test-project',
        rendered_image_url: `https://x/${app.project.id}.svg`,
      });
      expect((await app.get(base, { token: 'guest' })).headers.get('x-total')).toBe('3');
    });

    it('refuses Developers (403) and anonymous callers (401); checks params first; refuses invalid URLs (400)', async () => {
      const query = { link_url: 'https://x', image_url: 'https://y' };
      expect(await app.get(`${base}/render`, { token: 'developer', query })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      expect(await app.get(`${base}/render`, { token: null, query })).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
      expect(await app.get(`${base}/render`, { token: 'nonMember', query })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
      expect(await app.get(`${base}/render`, { token: null, query: { link_url: 'https://x' } })).toMatchObject({
        status: 400,
        body: { error: 'image_url is missing' },
      });
      expect(await app.get(`${base}/render`, { token: 'maintainer', query: { link_url: 'whatever', image_url: 'whatever' } })).toMatchObject({
        status: 400,
        body: { message: { link_url: ['is blocked: Only allowed schemes are http, https'], image_url: ['is blocked: Only allowed schemes are http, https'] } },
      });
    });
  });

  describe('DELETE /projects/:id/badges/:badge_id', () => {
    it("refuses a group's badge with GitLab's text (403), and keeps it", async () => {
      expect(await app.delete(`${base}/${topBadge.id}`, { token: 'maintainer' })).toMatchObject({
        status: 403,
        body: { error: 'To delete a Group badge please use the Group endpoint' },
      });
      expect((await app.get(`${base}/${topBadge.id}`, { token: 'guest' })).status).toBe(200);
    });

    it('honours If-Unmodified-Since (412), refuses Developers (403), and deletes for Maintainers (204)', async () => {
      const stale = { 'If-Unmodified-Since': new Date(Date.now() - 3_600_000).toUTCString() };
      expect(await app.delete(`${base}/${own.id}`, { token: 'maintainer', headers: stale })).toMatchObject({
        status: 412,
        body: { message: '412 Precondition Failed' },
      });
      expect(await app.delete(`${base}/${own.id}`, { token: 'developer' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      const res = await app.delete(`${base}/${own.id}`, { token: 'maintainer' });
      expect(res).toMatchObject({ status: 204, text: '' });
      expect(await app.get(`${base}/${own.id}`, { token: 'guest' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
      expect(await app.delete(`${base}/${own.id}`, { token: 'maintainer' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    });
  });

  describe('an archived project', () => {
    it('still takes badge changes from its Maintainers, as GitLab lets them change settings', async () => {
      expect((await app.post(`/api/v4/projects/${app.project.id}/archive`, {}, { token: 'admin' })).status).toBe(201);
      try {
        const created = await app.post(base, badge(7), { token: 'maintainer' });
        expect(created.status).toBe(201);
        expect((await app.put(`${base}/${created.body.id}`, { name: 'Archived' }, { token: 'maintainer' })).status).toBe(200);
        expect((await app.delete(`${base}/${created.body.id}`, { token: 'maintainer' })).status).toBe(204);
      } finally {
        await app.post(`/api/v4/projects/${app.project.id}/unarchive`, {}, { token: 'admin' });
      }
    });
  });

  describe('deleting what a badge belongs to', () => {
    const stored = (kind: 'project' | 'group', ownerId: number) => app.kernel.database.count(app.kernel.database.from(BadgeEntity).where({ kind, ownerId }));

    it("removes a project's badges with the project, and a group's with the group", async () => {
      expect(await stored('project', deep.id)).toBe(1);
      expect(await stored('group', subgroup.id)).toBe(1);
      expect((await app.delete(`/api/v4/groups/${subgroup.id}`, { token: 'owner' })).status).toBe(202);
      expect(await stored('project', deep.id)).toBe(0);
      expect(await stored('group', subgroup.id)).toBe(0);
      expect(await stored('group', app.group.id)).toBe(1);
    });
  });
});
