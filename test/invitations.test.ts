import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { kernelServices } from '@forgekit/kernel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, createUserWithToken, failureOf, type Api, type UserWithToken } from './support/gitbeaker.js';
import { startListeningServer, type ListeningServer } from './support/listening-server.js';
import { python } from './support/python-gitlab.js';

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * Invitations through real clients: an owner invites addresses with @gitbeaker/rest and
 * python-gitlab, an administrator creates the invited user, who then is a member; the
 * emailed link (read from the outbox, as no SMTP server is configured) accepts an invitation.
 */
describe('invitations through @gitbeaker/rest and python-gitlab', () => {
  let server: ListeningServer;
  let admin: Api;
  let alice: UserWithToken;
  let groupId: number;
  let projectId: number;

  /** The invitation emails sent to `address`, soft line breaks joined. */
  async function mailTo(address: string) {
    const outbox = join(server.kernel.resolve(kernelServices.instance).dataDir, 'outbox');
    const names = (await readdir(outbox)).filter((name) => name.endsWith('.eml'));
    const texts = await Promise.all(names.map((name) => readFile(join(outbox, name), 'utf8')));
    return texts.map((text) => text.replace(/=\r?\n/g, '')).filter((text) => text.includes(`To: ${address}`));
  }

  beforeAll(async () => {
    server = await startListeningServer();
    admin = clientFor(server, server.rootToken);
    alice = await createUserWithToken(admin, server, 'alice');
    groupId = (await alice.api.Groups.create('Team', 'team')).id as number;
    projectId = (await alice.api.Projects.create({ name: 'app', namespaceId: groupId })).id as number;
  });
  afterAll(() => server?.close());

  it('invites an email, creates the user and sees the membership', async () => {
    const added = await alice.api.GroupInvitations.add(groupId, 30, { email: 'carol@example.org', expiresAt: inDays(30) });
    expect(added).toEqual({ status: 'success' });
    const pending = await alice.api.GroupInvitations.all(groupId, { query: 'carol@example.org' });
    expect(pending).toEqual([
      expect.objectContaining({ invite_email: 'carol@example.org', access_level: 30, expires_at: inDays(30), user_name: null, created_by_name: 'Alice' }),
    ]);
    const edited = await alice.api.GroupInvitations.edit(groupId, 'carol@example.org', { accessLevel: 40 });
    expect(edited).toMatchObject({ invite_email: 'carol@example.org', access_level: 40 });

    const carol = await admin.Users.create({
      username: 'carol',
      name: 'Carol',
      email: 'carol@example.org',
      password: 'carol-Secret-123',
      skipConfirmation: true,
    });
    const member = await alice.api.GroupMembers.show(groupId, carol.id as number);
    expect(member).toMatchObject({ id: carol.id, username: 'carol', access_level: 40, expires_at: inDays(30) });
    expect(await alice.api.GroupInvitations.all(groupId)).toEqual([]);
  });

  it('answers per recipient and refuses what GitLab refuses', async () => {
    const past = await alice.api.ProjectInvitations.add(projectId, 30, { email: 'late@example.org', expiresAt: inDays(-1) });
    expect(past).toEqual({ status: 'error', message: { 'late@example.org': 'Expires at cannot be a date in the past' } });
    const bad = await failureOf(alice.api.ProjectInvitations.add(projectId, 30, { email: 'not-an-email' }));
    expect(bad).toEqual({ status: 400, description: 'email contains an invalid email address' });
    const bob = await createUserWithToken(admin, server, 'bob');
    expect(await alice.api.GroupInvitations.add(groupId, 40, { userId: String(bob.id) })).toEqual({ status: 'success' });
    expect(await alice.api.GroupMembers.show(groupId, bob.id)).toMatchObject({ username: 'bob', access_level: 40 });
    const belowGroup = await alice.api.ProjectInvitations.add(projectId, 30, { userId: String(bob.id) });
    expect(belowGroup).toEqual({
      status: 'error',
      message: { bob: 'Access level should be greater than or equal to Maintainer inherited membership from group Team' },
    });
    const asOwner = await failureOf(bob.api.GroupInvitations.add(groupId, 50, { email: 'boss@example.org' }));
    expect(asOwner.status).toBe(403);
  });

  it('the emailed link accepts a project invitation, and python-gitlab edits and removes invitations', async () => {
    await alice.api.ProjectInvitations.add(projectId, 20, { email: 'dave@example.org' });
    const [mail] = await mailTo('dave@example.org');
    const link = /(http:\/\/\S+\/api\/v4\/invitations\/\S+\/accept)/.exec(mail!)![1]!;
    expect(link.startsWith(server.url)).toBe(true);
    const dave = await createUserWithToken(admin, server, 'dave');
    const accepted = await fetch(link, { method: 'POST', headers: { 'PRIVATE-TOKEN': dave.token } });
    expect(accepted.status).toBe(201);
    expect(await accepted.json()).toEqual({ source_type: 'Project', source_id: projectId, user_id: dave.id, access_level: 20, expires_at: null });
    expect(await alice.api.ProjectMembers.show(projectId, dave.id)).toMatchObject({ username: 'dave', access_level: 20 });

    const result = await python(
      server,
      alice.token,
      `project = gl.projects.get(${projectId}, lazy=True)
project.invitations.create({"email": "erin@example.org", "access_level": 10})
project.invitations.update("erin@example.org", {"access_level": 30})
listed = [{"email": i.invite_email, "level": i.access_level} for i in project.invitations.list(query="erin@example.org")]
project.invitations.delete("erin@example.org")
print(json.dumps({"listed": listed, "after": len(project.invitations.list())}))`,
    );
    expect(result).toEqual({ listed: [{ email: 'erin@example.org', level: 30 }], after: 0 });
  });
});
