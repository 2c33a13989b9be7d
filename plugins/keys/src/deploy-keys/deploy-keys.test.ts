import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { keyEvents, type KeyEvent } from '../contracts.js';
import { keysPlugin } from '../plugin.js';
import { fingerprintsOf, newSshKey } from '../testing/test-keys.js';

const DEPLOY_KEY_FIELDS = ['id', 'title', 'created_at', 'expires_at', 'last_used_at', 'key', 'usage_type', 'fingerprint', 'fingerprint_sha256'];

describe('deploy keys', () => {
  let app: TestApp;
  let base: string;
  /** A second project, `test-group/other`, that the maintainer maintains too. */
  let other: { id: number };
  const destroyed: KeyEvent[] = [];
  const add = (body: Record<string, unknown>, token = 'maintainer', projectBase = base) => app.post(projectBase, body, { token });

  beforeAll(async () => {
    app = await createTestApp({ plugins: [keysPlugin] });
    base = `/api/v4/projects/${app.project.id}/deploy_keys`;
    other = (await app.post('/api/v4/projects', { name: 'Other', path: 'other', namespace_id: app.group.id }, { token: 'owner' })).body;
    app.kernel.events.on(keyEvents.keyDestroyed, (event) => void destroyed.push(event));
  });
  afterAll(() => app?.close());

  describe('POST /projects/:id/deploy_keys', () => {
    it('adds a deploy key: the key as stored, its fingerprints and can_push', async () => {
      const key = newSshKey('ed25519', undefined, 'ci@example.com');
      const res = await add({ title: 'CI', key, can_push: true });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual([...DEPLOY_KEY_FIELDS, 'can_push']);
      const { md5, sha256 } = fingerprintsOf(key);
      expect(res.body).toMatchObject({
        title: 'CI',
        key,
        usage_type: 'auth_and_signing',
        fingerprint: md5,
        fingerprint_sha256: sha256,
        can_push: true,
        expires_at: null,
      });
    });

    it('answers the same key again as it is, without a second one', async () => {
      const key = newSshKey();
      const first = await add({ title: 'Once', key });
      const again = await add({ title: 'Twice', key, can_push: true });
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect((await app.get(base, { token: 'maintainer', query: { per_page: 100 } })).body.filter((k: { id: number }) => k.id === first.body.id)).toHaveLength(
        1,
      );
    });

    it('enables a key the caller uses on another project they maintain, rather than making another', async () => {
      const key = newSshKey();
      const first = await add({ title: 'Shared', key });
      const shared = await add({ title: 'Ignored title', key, can_push: true }, 'maintainer', `/api/v4/projects/${other.id}/deploy_keys`);
      expect(shared.status).toBe(201);
      expect(shared.body).toMatchObject({ id: first.body.id, title: 'Shared', can_push: true });
    });

    it('refuses a key that someone else uses elsewhere, under the deploy key’s name', async () => {
      const key = newSshKey();
      expect((await app.post('/api/v4/user/keys', { title: 'Personal', key }, { token: 'guest' })).status).toBe(201);
      const res = await add({ title: 'Stolen', key });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { 'deploy_key.fingerprint_sha256': ['has already been taken'] } });
    });

    it('validates as GitLab does', async () => {
      expect((await add({})).body).toEqual({ error: 'key is missing, title is missing' });
      const res = await add({ title: '', key: 'not a key' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: {
          'deploy_key.title': ["can't be blank"],
          'deploy_key.key': ['type is forbidden. Must be RSA, DSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK', 'is invalid'],
          'deploy_key.fingerprint_sha256': ['cannot be generated'],
        },
      });
      expect((await add({ title: 't', key: newSshKey(), can_push: 'perhaps' })).body).toEqual({ error: 'can_push is invalid' });
    });

    it('is for Maintainers: 403 below, 404 for those who cannot see the project, 401 anonymous', async () => {
      const denied = await add({ title: 't', key: newSshKey() }, 'developer');
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ message: '403 Forbidden' });
      const hidden = await add({ title: 't', key: newSshKey() }, 'nonMember');
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual({ message: '404 Project Not Found' });
      expect((await app.post(base, { title: 't', key: newSshKey() })).status).toBe(401);
      expect((await app.get(base, { token: 'developer' })).status).toBe(403);
    });
  });

  describe('GET', () => {
    it('lists the project’s keys, paginated, and gets one', async () => {
      const list = await app.get(base, { token: 'maintainer', query: { per_page: 2 } });
      expect(list.status).toBe(200);
      expect(list.headers.get('x-total')).toBe('3');
      expect(list.body).toHaveLength(2);
      expect(Object.keys(list.body[0])).toEqual([...DEPLOY_KEY_FIELDS, 'can_push']);
      const one = await app.get(`${base}/${list.body[0].id}`, { token: 'maintainer' });
      expect(one.body).toEqual(list.body[0]);
    });

    it('answers 404 Not found for a key the project does not use', async () => {
      const elsewhere = await add({ title: 'Elsewhere', key: newSshKey() }, 'maintainer', `/api/v4/projects/${other.id}/deploy_keys`);
      const res = await app.get(`${base}/${elsewhere.body.id}`, { token: 'maintainer' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Not found' });
    });
  });

  describe('PUT /projects/:id/deploy_keys/:key_id', () => {
    it('changes can_push and the title of a key only this project uses', async () => {
      const key = (await add({ title: 'Before', key: newSshKey() })).body;
      const res = await app.put(`${base}/${key.id}`, { title: 'After', can_push: true }, { token: 'maintainer' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: key.id, title: 'After', can_push: true });
      expect((await app.get(`${base}/${key.id}`, { token: 'maintainer' })).body).toMatchObject({ title: 'After', can_push: true });
    });

    it('keeps the title of a key other projects use, unless an administrator changes it', async () => {
      const key = newSshKey();
      const created = (await add({ title: 'Common', key })).body;
      await add({ title: 'x', key }, 'maintainer', `/api/v4/projects/${other.id}/deploy_keys`);
      const res = await app.put(`${base}/${created.id}`, { title: 'Renamed', can_push: true }, { token: 'maintainer' });
      expect(res.body).toMatchObject({ title: 'Common', can_push: true });
      const admin = await app.put(`${base}/${created.id}`, { title: 'Renamed' }, { token: 'admin' });
      expect(admin.body).toMatchObject({ title: 'Renamed', can_push: true });
    });

    it('needs one of title and can_push, and a key the project uses', async () => {
      const [key] = (await app.get(base, { token: 'maintainer' })).body;
      expect((await app.put(`${base}/${key.id}`, {}, { token: 'maintainer' })).body).toEqual({
        error: 'title, can_push are missing, at least one parameter must be provided',
      });
      expect((await app.put(`${base}/999999`, { title: 'x' }, { token: 'maintainer' })).body).toEqual({ message: '404 Not found' });
      expect((await app.put(`${base}/${key.id}`, { title: 'x' }, { token: 'developer' })).status).toBe(403);
    });
  });

  describe('POST /projects/:id/deploy_keys/:key_id/enable', () => {
    it('enables a key the caller may use, as DeployKey with 201', async () => {
      const key = (await add({ title: 'To share', key: newSshKey() })).body;
      const res = await app.post(`/api/v4/projects/${other.id}/deploy_keys/${key.id}/enable`, {}, { token: 'maintainer' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(DEPLOY_KEY_FIELDS);
      expect(res.body.id).toBe(key.id);
      const there = await app.get(`/api/v4/projects/${other.id}/deploy_keys/${key.id}`, { token: 'maintainer' });
      expect(there.body).toMatchObject({ id: key.id, can_push: false });
      // Again: nothing changes.
      expect((await app.post(`/api/v4/projects/${other.id}/deploy_keys/${key.id}/enable`, {}, { token: 'maintainer' })).status).toBe(201);
    });

    it('answers 404 Deploy key Not Found for a key the caller may not use, or none', async () => {
      const owners = (await app.post('/api/v4/projects', { name: 'Owned', path: 'owned', namespace_id: app.group.id }, { token: 'owner' })).body;
      const private_ = await add({ title: 'Owner only', key: newSshKey() }, 'owner', `/api/v4/projects/${owners.id}/deploy_keys`);
      // The maintainer of test-project is a group Maintainer, so they maintain `owned` too: use a personal project instead.
      const personal = (await app.post('/api/v4/projects', { name: 'Mine', path: 'mine' }, { token: 'guest' })).body;
      const mine = await add({ title: 'Guest only', key: newSshKey() }, 'guest', `/api/v4/projects/${personal.id}/deploy_keys`);
      expect(private_.status).toBe(201);
      const res = await app.post(`${base}/${mine.body.id}/enable`, {}, { token: 'maintainer' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Deploy key Not Found' });
      expect((await app.post(`${base}/999999/enable`, {}, { token: 'maintainer' })).body).toEqual({ message: '404 Deploy key Not Found' });
      // Administrators may enable any deploy key.
      expect((await app.post(`${base}/${mine.body.id}/enable`, {}, { token: 'admin' })).status).toBe(201);
    });
  });

  describe('DELETE /projects/:id/deploy_keys/:key_id', () => {
    it('disables a shared key here only, and removes a key no project uses any more', async () => {
      const key = newSshKey();
      const created = (await add({ title: 'Two projects', key })).body;
      await add({ title: 'x', key }, 'maintainer', `/api/v4/projects/${other.id}/deploy_keys`);
      expect((await app.delete(`${base}/${created.id}`, { token: 'maintainer' })).status).toBe(204);
      expect((await app.get(`${base}/${created.id}`, { token: 'maintainer' })).status).toBe(404);
      expect((await app.get(`/api/v4/projects/${other.id}/deploy_keys/${created.id}`, { token: 'maintainer' })).status).toBe(200);
      expect(destroyed.some((event) => event.keyId === created.id)).toBe(false);

      expect((await app.delete(`/api/v4/projects/${other.id}/deploy_keys/${created.id}`, { token: 'maintainer' })).status).toBe(204);
      expect(destroyed.at(-1)).toMatchObject({ keyId: created.id, kind: 'deploy' });
      expect((await app.get(`/api/v4/keys/${created.id}`, { token: 'admin' })).status).toBe(404);
    });

    it('answers 404 Deploy key Not Found, 412 for a stale If-Unmodified-Since, 403 below Maintainer', async () => {
      expect((await app.delete(`${base}/999999`, { token: 'maintainer' })).body).toEqual({ message: '404 Deploy key Not Found' });
      const [key] = (await app.get(base, { token: 'maintainer' })).body;
      expect((await app.delete(`${base}/${key.id}`, { token: 'developer' })).status).toBe(403);
      const stale = await app.delete(`${base}/${key.id}`, { token: 'maintainer', headers: { 'If-Unmodified-Since': 'Mon, 01 Jan 2001 00:00:00 GMT' } });
      expect(stale.status).toBe(412);
    });
  });

  describe('instance deploy keys', () => {
    it('lets administrators add a public key any maintainer may enable', async () => {
      const res = await app.post('/api/v4/deploy_keys', { title: 'Everyone', key: newSshKey() }, { token: 'admin' });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(DEPLOY_KEY_FIELDS);
      expect((await app.post(`${base}/${res.body.id}/enable`, {}, { token: 'maintainer' })).status).toBe(201);
      // A public key stays when its last project lets it go.
      expect((await app.delete(`${base}/${res.body.id}`, { token: 'maintainer' })).status).toBe(204);
      expect((await app.get(`/api/v4/keys/${res.body.id}`, { token: 'admin' })).status).toBe(200);
      expect((await app.post('/api/v4/deploy_keys', { title: '', key: 'x' }, { token: 'admin' })).body.message).toMatchObject({ title: ["can't be blank"] });
      expect((await app.post('/api/v4/deploy_keys', { title: 'x', key: newSshKey() }, { token: 'maintainer' })).status).toBe(403);
    });

    it('lists every deploy key with the projects using it, or only public ones', async () => {
      const res = await app.get('/api/v4/deploy_keys', { token: 'admin', query: { per_page: 100 } });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body[0])).toEqual([...DEPLOY_KEY_FIELDS, 'projects_with_write_access', 'projects_with_readonly_access']);
      const ci = res.body.find((key: { title: string }) => key.title === 'CI');
      expect(ci.projects_with_write_access).toEqual([expect.objectContaining({ id: app.project.id, path_with_namespace: 'test-group/test-project' })]);
      expect(ci.projects_with_readonly_access).toEqual([]);
      const onlyPublic = await app.get('/api/v4/deploy_keys', { token: 'admin', query: { public: true } });
      expect(onlyPublic.body.map((key: { title: string }) => key.title)).toEqual(['Everyone']);
      expect(onlyPublic.headers.get('x-total')).toBe('1');
      expect((await app.get('/api/v4/deploy_keys', { token: 'maintainer' })).status).toBe(403);
    });
  });

  it('still takes deploy key changes on an archived project, as GitLab does', async () => {
    const project = (await app.post('/api/v4/projects', { name: 'Old', path: 'old', namespace_id: app.group.id }, { token: 'owner' })).body;
    expect((await app.post(`/api/v4/projects/${project.id}/archive`, {}, { token: 'owner' })).status).toBe(201);
    const res = await add({ title: 'Archived', key: newSshKey() }, 'maintainer', `/api/v4/projects/${project.id}/deploy_keys`);
    expect(res.status).toBe(201);
  });

  it('removes a deleted project’s links, and the keys only it used', async () => {
    const project = (await app.post('/api/v4/projects', { name: 'Doomed', path: 'doomed', namespace_id: app.group.id }, { token: 'owner' })).body;
    const only = (await add({ title: 'Only here', key: newSshKey() }, 'maintainer', `/api/v4/projects/${project.id}/deploy_keys`)).body;
    const sharedKey = newSshKey();
    const shared = (await add({ title: 'Also here', key: sharedKey }, 'maintainer', `/api/v4/projects/${project.id}/deploy_keys`)).body;
    await add({ title: 'x', key: sharedKey });
    expect((await app.delete(`/api/v4/projects/${project.id}`, { token: 'owner' })).status).toBe(202);
    await expect.poll(async () => (await app.get(`/api/v4/keys/${only.id}`, { token: 'admin' })).status).toBe(404);
    const kept = await app.get(`/api/v4/keys?fingerprint=${encodeURIComponent(shared.fingerprint_sha256)}`, { token: 'admin' });
    expect(kept.body.deploy_keys_projects.map((link: { project_id: number }) => link.project_id)).toEqual([app.project.id]);
  });
});
