import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';

const sshString = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);

/** A fresh `ssh-ed25519` public key with a comment, and its SHA256 fingerprint as ssh-keygen prints it. */
function newKey(comment: string) {
  const der = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' });
  const blob = Buffer.concat([sshString(Buffer.from('ssh-ed25519')), sshString(der.subarray(-32))]);
  const sha256 = `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
  return { key: `ssh-ed25519 ${blob.toString('base64')} ${comment}`, sha256 };
}

/** Developers add SSH keys, maintainers deploy keys, and an administrator looks a key up, through @gitbeaker/rest and plain requests. */
describe('SSH and deploy keys through @gitbeaker/rest', () => {
  let server: ListeningServer;
  let admin: Api;
  let alice: UserWithToken;
  let bob: UserWithToken;
  let project: { id: number };
  let other: { id: number };
  const call = (method: string, path: string, token: string | null, body?: Record<string, unknown>) =>
    fetch(`${server.url}/api/v4${path}`, {
      method,
      headers: { ...(token ? { 'PRIVATE-TOKEN': token } : {}), 'Content-Type': 'application/json' },
      body: body && JSON.stringify(body),
    });

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    alice = await createUserWithToken(admin, server, 'alice');
    bob = await createUserWithToken(admin, server, 'bob');
    project = (await alice.api.Projects.create({ name: 'Deployed' })) as unknown as { id: number };
    other = (await alice.api.Projects.create({ name: 'Also deployed' })) as unknown as { id: number };
  });
  afterAll(() => server?.close());

  describe('user keys', () => {
    it('adds a key of her own, published with her name and the host instead of its comment', async () => {
      const { key } = newKey('alice@laptop');
      const added = await alice.api.UserSSHKeys.create('Laptop', key, { usageType: 'auth' });
      const host = new URL(server.url).hostname;
      expect(added).toMatchObject({ title: 'Laptop', usage_type: 'auth', expires_at: null, last_used_at: null });
      expect(added.key).toBe(`${key.split(' ').slice(0, 2).join(' ')} Alice (${host})`);

      expect((await alice.api.UserSSHKeys.all()).map((k) => k.id)).toEqual([added.id]);
      expect(await alice.api.UserSSHKeys.show(added.id)).toMatchObject({ id: added.id, title: 'Laptop' });
    });

    it('refuses a key someone already has, with the validation body', async () => {
      const { key } = newKey('shared');
      await alice.api.UserSSHKeys.create('Mine', key);
      const failure = await failureOf(bob.api.UserSSHKeys.create('Mine too', key));
      expect(failure).toEqual({ status: 400, description: JSON.stringify({ fingerprint_sha256: ['has already been taken'] }) });
    });

    it("shows anyone's keys to anyone, by id or username, and 404s a key of someone else", async () => {
      const mine = await alice.api.UserSSHKeys.all();
      const anonymous = await call('GET', '/users/alice/keys', null);
      expect(anonymous.status).toBe(200);
      expect(((await anonymous.json()) as { id: number }[]).map((k) => k.id)).toEqual(mine.map((k) => k.id));
      const one = await call('GET', `/users/${alice.id}/keys/${mine[0]!.id}`, null);
      expect(one.status).toBe(200);
      expect(await one.json()).toMatchObject({ id: mine[0]!.id, title: mine[0]!.title });

      expect((await call('GET', `/users/${bob.id}/keys/${mine[0]!.id}`, null)).status).toBe(404);
      expect(await failureOf(bob.api.UserSSHKeys.show(mine[0]!.id))).toMatchObject({ status: 404 });
      expect((await call('GET', '/users/nobody/keys', null)).status).toBe(404);
    });

    it("lets an administrator add and remove a user's keys, and no one else", async () => {
      const { key } = newKey('given');
      expect(await failureOf(alice.api.UserSSHKeys.create('Given', key, { userId: bob.id }))).toMatchObject({ status: 403 });
      const given = await admin.UserSSHKeys.create('Given', key, { userId: bob.id, expiresAt: '2999-01-01T00:00:00Z' });
      expect(given).toMatchObject({ title: 'Given', usage_type: 'auth_and_signing', expires_at: '2999-01-01T00:00:00.000Z' });
      expect((await bob.api.UserSSHKeys.all()).map((k) => k.title)).toContain('Given');

      expect(await failureOf(alice.api.UserSSHKeys.remove(given.id, { userId: bob.id }))).toMatchObject({ status: 403 });
      await admin.UserSSHKeys.remove(given.id, { userId: bob.id });
      expect((await bob.api.UserSSHKeys.all()).map((k) => k.title)).not.toContain('Given');
      expect(await failureOf(admin.UserSSHKeys.remove(given.id, { userId: bob.id }))).toMatchObject({ status: 404 });
    });

    it('removes her own key, honouring If-Unmodified-Since', async () => {
      const added = await alice.api.UserSSHKeys.create('Old laptop', newKey('old').key);
      const removed = await call('DELETE', `/user/keys/${added.id}`, alice.token);
      expect(removed.status).toBe(204);
      expect(await failureOf(alice.api.UserSSHKeys.show(added.id))).toMatchObject({ status: 404 });

      const kept = await alice.api.UserSSHKeys.create('Kept', newKey('kept').key);
      const refused = await fetch(`${server.url}/api/v4/user/keys/${kept.id}`, {
        method: 'DELETE',
        headers: { 'PRIVATE-TOKEN': alice.token, 'If-Unmodified-Since': new Date(Date.parse(kept.created_at) - 60_000).toUTCString() },
      });
      expect(refused.status).toBe(412);
      expect((await alice.api.UserSSHKeys.all()).map((k) => k.id)).toContain(kept.id);
    });
  });

  describe('deploy keys', () => {
    let deployKey: { id: number; key: string; sha256: string };

    it('adds a deploy key to a project, read-only unless it may push', async () => {
      const { key, sha256 } = newKey('ci@deploy');
      const added = await alice.api.DeployKeys.create(project.id, 'CI', key, { canPush: true });
      expect(added).toMatchObject({ title: 'CI', key, can_push: true, fingerprint_sha256: sha256 });
      deployKey = { id: added.id, key, sha256 };

      expect(await alice.api.DeployKeys.show(project.id, added.id)).toMatchObject({ id: added.id, can_push: true });
      expect((await alice.api.DeployKeys.all({ projectId: project.id })).map((k) => k.id)).toEqual([added.id]);
    });

    it('edits its title and push access; nothing to change is a 400', async () => {
      const edited = await alice.api.DeployKeys.edit(project.id, deployKey.id, { title: 'CI runner', canPush: false });
      expect(edited).toMatchObject({ title: 'CI runner', can_push: false });
      expect((await call('PUT', `/projects/${project.id}/deploy_keys/${deployKey.id}`, alice.token, {})).status).toBe(400);
    });

    it('enables the key on another project of hers, and keeps non-members out', async () => {
      const enabled = await alice.api.DeployKeys.enable(other.id, deployKey.id);
      expect(enabled).toMatchObject({ id: deployKey.id, fingerprint_sha256: deployKey.sha256 });
      expect((await alice.api.DeployKeys.all({ projectId: other.id })).map((k) => k.id)).toEqual([deployKey.id]);

      expect(await failureOf(bob.api.DeployKeys.all({ projectId: project.id }))).toMatchObject({ status: 404 });
      expect(await failureOf(bob.api.DeployKeys.enable(project.id, deployKey.id))).toMatchObject({ status: 404 });
    });

    it('lists every deploy key for an administrator with the projects it reaches, and adds a public one', async () => {
      const listed = await call('GET', '/deploy_keys', server.rootToken);
      expect(listed.status).toBe(200);
      const found = ((await listed.json()) as { id: number; projects_with_readonly_access: { id: number }[] }[]).find((k) => k.id === deployKey.id);
      expect(found?.projects_with_readonly_access.map((p) => p.id).sort()).toEqual([project.id, other.id].sort());

      const { key } = newKey('public');
      const created = await call('POST', '/deploy_keys', server.rootToken, { title: 'Public', key });
      expect(created.status).toBe(201);
      const publicKey = (await created.json()) as { id: number; title: string };
      expect(publicKey.title).toBe('Public');
      const onlyPublic = await call('GET', '/deploy_keys?public=true', server.rootToken);
      expect(((await onlyPublic.json()) as { id: number }[]).map((k) => k.id)).toEqual([publicKey.id]);

      expect((await call('GET', '/deploy_keys', alice.token)).status).toBe(403);
    });

    it('removes the key from one project and keeps it on the other', async () => {
      await alice.api.DeployKeys.remove(other.id, deployKey.id);
      expect(await alice.api.DeployKeys.all({ projectId: other.id })).toEqual([]);
      expect(await alice.api.DeployKeys.show(project.id, deployKey.id)).toMatchObject({ id: deployKey.id });
      expect(await failureOf(alice.api.DeployKeys.remove(other.id, deployKey.id))).toMatchObject({ status: 404 });
    });
  });

  describe('key lookup', () => {
    const lookup = (fingerprint: string) => `/keys?fingerprint=${encodeURIComponent(fingerprint)}`;

    it('finds a user key by id and by fingerprint, with its owner, for administrators only', async () => {
      const { key, sha256 } = newKey('looked-up');
      const added = await bob.api.UserSSHKeys.create('Desk', key);

      const byId = await admin.Keys.show({ keyId: added.id });
      expect(byId).toMatchObject({ id: added.id, title: 'Desk', user: { id: bob.id, username: 'bob' } });
      // gitbeaker puts the fingerprint in the path unencoded, where the query is lost: a plain request instead.
      const byFingerprint = await call('GET', lookup(sha256), server.rootToken);
      expect(byFingerprint.status).toBe(200);
      expect(await byFingerprint.json()).toMatchObject({ id: added.id, user: { id: bob.id, username: 'bob' } });

      expect(await failureOf(bob.api.Keys.show({ keyId: added.id }))).toMatchObject({ status: 403 });
      expect((await call('GET', lookup(sha256), bob.token)).status).toBe(403);
    });

    it('finds a deploy key by fingerprint with the projects it is on, and 404s an unknown one', async () => {
      const { sha256 } = newKey('nowhere');
      const ci = (await alice.api.DeployKeys.all({ projectId: project.id }))[0]!;
      const found = await call('GET', lookup(ci.fingerprint_sha256 as string), server.rootToken);
      expect(found.status).toBe(200);
      expect(await found.json()).toMatchObject({ id: ci.id, deploy_keys_projects: [{ deploy_key_id: ci.id, project_id: project.id, can_push: false }] });

      expect((await call('GET', lookup(sha256), server.rootToken)).status).toBe(404);
      expect(await (await call('GET', lookup('SHA256:not-a-digest'), server.rootToken)).json()).toEqual({ message: 'Failed to return the key' });
      expect(await failureOf(admin.Keys.show({ keyId: 999_999 }))).toMatchObject({ status: 404 });
    });
  });
});
