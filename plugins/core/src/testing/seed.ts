/** The users (one per role), tokens, group and project every plugin's tests start from. */
import type { Kernel } from '@forgekit/kernel';
import { ALL_SCOPES, coreGroupsRef, coreProjectsRef, coreTokensRef, coreUsersRef, type Namespace, type Project, type User } from '../contracts.js';
import { MemberEntity } from '../entities/member.js';

export const ROLES = ['admin', 'owner', 'maintainer', 'developer', 'reporter', 'guest', 'nonMember'] as const;
export type Role = (typeof ROLES)[number];

const LEVELS: Partial<Record<Role, number>> = { maintainer: 40, developer: 30, reporter: 20, guest: 10 };

export interface Fixtures {
  users: Record<Role, User>;
  /** An `api`-scoped token per role (the admin's has every scope). */
  tokens: Record<Role, string>;
  /** `test-group`, owned by `owner`; the other roles are members of it. */
  group: Namespace;
  /** `test-group/test-project`, private. */
  project: Project;
}

export async function seedFixtures(kernel: Kernel): Promise<Fixtures> {
  const usersService = kernel.resolve(coreUsersRef);
  const tokensService = kernel.resolve(coreTokensRef);
  const groupsService = kernel.resolve(coreGroupsRef);
  const projectsService = kernel.resolve(coreProjectsRef);

  const users = {} as Record<Role, User>;
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
  const members = Object.entries(LEVELS).map(([role, level]) => ({
    sourceType: 'Namespace' as const,
    sourceId: group.id,
    userId: users[role as Role].id,
    accessLevel: level,
    createdAt: now,
    updatedAt: now,
  }));
  await kernel.database.insertMany(MemberEntity, members);
  const project = await projectsService.create(group, { name: 'Test Project', path: 'test-project' }, users.owner.id);
  return { users, tokens, group, project };
}
