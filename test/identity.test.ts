import { execFile } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { python } from './support/python-gitlab.js';

/** A new `ssh-ed25519` public key in OpenSSH's form, and its fingerprints as `ssh-keygen -l` prints them. */
function newEd25519Key(comment: string) {
  const der = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'der' });
  const string = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  // The SPKI of an Ed25519 key ends with its 32 raw bytes.
  const blob = Buffer.concat([string(Buffer.from('ssh-ed25519')), string(der.subarray(der.length - 32))]);
  return {
    text: `ssh-ed25519 ${blob.toString('base64')} ${comment}`,
    md5: createHash('md5')
      .update(blob)
      .digest('hex')
      .replace(/(..)(?!$)/g, '$1:'),
    sha256: `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`,
  };
}

/**
 * Identity through real clients: a user adds an SSH key with @gitbeaker/rest and an
 * administrator finds them by both fingerprints (python-gitlab, and curl-style requests), a deploy key
 * shows its projects, users follow each other, and git clones a project through its alias.
 */
describe('keys, follows and project aliases through @gitbeaker/rest, python-gitlab and git', () => {
  let server: ListeningServer;
  let admin: Api;
  let alice: UserWithToken;
  let bob: UserWithToken;
  let work: string;

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    alice = await createUserWithToken(admin, server, 'alice');
    bob = await createUserWithToken(admin, server, 'bob');
    work = await mkdtemp(join(tmpdir(), 'forgekit-identity-blackbox-'));
  });
  afterAll(async () => {
    await server?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('adds an SSH key and finds its user by both fingerprints', async () => {
    const key = newEd25519Key('alice@laptop');
    const added = await alice.api.UserSSHKeys.create('Laptop', key.text);
    expect(added).toMatchObject({ title: 'Laptop', usage_type: 'auth_and_signing' });
    expect(added.key).toBe(`${key.text.split(' ').slice(0, 2).join(' ')} Alice (127.0.0.1)`);
    expect((await alice.api.UserSSHKeys.all()).map((k) => k.id)).toEqual([added.id]);

    // gitbeaker's fingerprint lookup drops its own query string (it sets the URL's search
    // afterwards), so python-gitlab and curl-style requests look fingerprints up here.
    const byId = (await admin.Keys.show({ keyId: added.id })) as unknown as { id: number; user: { username: string } };
    expect(byId).toMatchObject({ id: added.id, user: { username: 'alice' } });
    const curl = (fingerprint: string, token = server.rootToken) =>
      fetch(`${server.url}/api/v4/keys?fingerprint=${encodeURIComponent(fingerprint)}`, { headers: { 'PRIVATE-TOKEN': token } });
    const bySha = await curl(key.sha256);
    expect(bySha.status).toBe(200);
    expect(await bySha.json()).toMatchObject({ id: added.id, user: { username: 'alice', email: 'alice@example.com' } });
    const viaPython = await python(
      server,
      server.rootToken,
      `found = [gl.keys.get(fingerprint=f) for f in ${JSON.stringify([key.md5, key.sha256])}]
print(json.dumps([[k.id, k.user['username']] for k in found]))`,
    );
    expect(viaPython).toEqual([
      [added.id, 'alice'],
      [added.id, 'alice'],
    ]);

    const denied = await curl(key.md5, bob.token);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ message: '403 Forbidden' });
    const malformed = await curl('SHA256:not-a-digest');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ message: 'Failed to return the key' });
    expect(await failureOf(bob.api.UserSSHKeys.create('Copy', key.text))).toMatchObject({ status: 400 });
  });

  it('adds a deploy key with python-gitlab and finds it, with its projects, by fingerprint', async () => {
    const project = await admin.Projects.create({ name: 'Deployed', path: 'deployed' });
    const key = newEd25519Key('ci@build');
    const created = await python(
      server,
      server.rootToken,
      `k = gl.projects.get(${project.id}).keys.create({'title': 'CI', 'key': ${JSON.stringify(key.text)}, 'can_push': True})
print(json.dumps({'id': k.id, 'can_push': k.can_push, 'fingerprint_sha256': k.fingerprint_sha256}))`,
    );
    expect(created).toMatchObject({ can_push: true, fingerprint_sha256: key.sha256 });
    const found = await python(
      server,
      server.rootToken,
      `k = gl.keys.get(fingerprint=${JSON.stringify(key.md5)})
print(json.dumps({'id': k.id, 'deploy_keys_projects': k.deploy_keys_projects}))`,
    );
    expect(found.id).toBe(created.id);
    expect(found.deploy_keys_projects).toEqual([expect.objectContaining({ project_id: project.id, can_push: true })]);
    expect((await admin.DeployKeys.all({ projectId: project.id })).map((k) => k.id)).toEqual([created.id]);
  });

  it('follows and unfollows users, with the counts on the user', async () => {
    expect(await alice.api.Users.follow(bob.id)).toMatchObject({ id: bob.id, username: 'bob' });
    expect((await bob.api.Users.allFollowers(bob.id)).map((user) => user.username)).toEqual(['alice']);
    const followed = await python(server, bob.token, `print(json.dumps([u.username for u in gl.users.get(${alice.id}).following_users.list(get_all=True)]))`);
    expect(followed).toEqual(['bob']);
    expect(await bob.api.Users.show(bob.id)).toMatchObject({ followers: 1, following: 0 });
    await alice.api.Users.unfollow(bob.id);
    expect(await bob.api.Users.allFollowers(bob.id)).toEqual([]);
  });

  it('clones through an alias, with the project’s access rules', async () => {
    const project = await admin.Projects.create({ name: 'Aliased', path: 'aliased', initializeWithReadme: true });
    const alias = await admin.ProjectAliases.create(project.id, 'shortcut');
    expect(alias).toMatchObject({ project_id: project.id, name: 'shortcut' });
    const git = (...args: string[]) =>
      new Promise<{ code: number; stderr: string }>((resolve) =>
        execFile(
          'git',
          args,
          { cwd: work, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0' } },
          (error, _out, stderr) => resolve({ code: error ? 1 : 0, stderr: stderr.toString() }),
        ),
      );
    const as = (token: string) => `${server.url.replace('://', `://user:${token}@`)}/shortcut.git`;
    expect(await git('clone', '--quiet', as(server.rootToken), 'shortcut')).toMatchObject({ code: 0 });
    expect(await readFile(join(work, 'shortcut', 'README.md'), 'utf8')).toBe('# Aliased\n');

    // Bob is no member of the private project: the alias does not open it.
    const refused = await git('clone', '--quiet', as(bob.token), 'refused');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('could not be found');

    await admin.ProjectAliases.remove('shortcut');
    expect(await git('clone', '--quiet', as(server.rootToken), 'gone')).toMatchObject({ code: 1 });
  });
});
