/** The users (one per role), tokens, group and project every plugin's tests start from. */
import type { Kernel } from '@forgekit/kernel';
import {
  ALL_SCOPES,
  coreGroupsRef,
  coreProjectsRef,
  coreTokensRef,
  coreUsersRef,
  type NamespaceRow,
  type ProjectWithNamespace,
  type UserRow,
} from '../contracts.js';
import { Member } from '../entities/member.js';

export const ROLES = ['admin', 'owner', 'maintainer', 'developer', 'reporter', 'guest', 'nonMember'] as const;
export type Role = (typeof ROLES)[number];

const LEVELS: Partial<Record<Role, number>> = { maintainer: 40, developer: 30, reporter: 20, guest: 10 };

export interface Fixtures {
  users: Record<Role, UserRow>;
  /** An `api`-scoped token per role (the admin's has every scope). */
  tokens: Record<Role, string>;
  /** `test-group`, owned by `owner`; the other roles are members of it. */
  group: NamespaceRow;
  /** `test-group/test-project`, private. */
  project: ProjectWithNamespace;
}

export async function seedFixtures(kernel: Kernel): Promise<Fixtures> {
  const usersService = kernel.resolve(coreUsersRef);
  const tokensService = kernel.resolve(coreTokensRef);
  const groupsService = kernel.resolve(coreGroupsRef);
  const projectsService = kernel.resolve(coreProjectsRef);

  const users = {} as Record<Role, UserRow>;
  const tokens = {} as Record<Role, string>;
  for (const role of ROLES) {
    const username = role === 'nonMember' ? 'non-member' : role === 'admin' ? 'administrator' : role;
    users[role] = await usersService.create({
      username,
      name: `${role[0]!.toUpperCase()}${role.slice(1)} User`,
      email: `${username}@example.com`,
      // Seeded users sign in with their tokens: a password would cost a deliberately slow
      // scrypt hash (about 70 ms) per user, most of every test app's start.
      password: null,
      admin: role === 'admin',
    });
    const scopes = role === 'admin' ? [...ALL_SCOPES] : ['api'];
    tokens[role] = (await tokensService.create({ userId: users[role].id, name: `${role} token`, scopes })).secret;
  }
  const group = await groupsService.create({ name: 'Test Group', path: 'test-group' }, users.owner.id);
  const now = new Date();
  for (const [role, level] of Object.entries(LEVELS)) {
    await kernel.database.legacy.em().insert(Member, {
      source_type: 'Namespace',
      source_id: group.id,
      user_id: users[role as Role].id,
      access_level: level,
      created_at: now,
      updated_at: now,
    });
  }
  const project = await projectsService.create(group, { name: 'Test Project', path: 'test-project' }, users.owner.id);
  return { users, tokens, group, project };
}
