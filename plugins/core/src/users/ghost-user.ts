/**
 * GitLab's Ghost User: the author of what deleted users leave behind (issues, notes, merge requests).
 * It is created the first time a deletion needs it. GitLab tells it apart by a user type this schema
 * does not have; here it is the `ghost<n>` user with the matching `ghost<n>@example.com` address, and
 * as in GitLab the name goes to `ghost1`, `ghost2` … when someone else holds `ghost`.
 */
import type { User, UserService } from '../contracts.js';

const ATTEMPTS = 20;
const emailOf = (username: string) => `${username}@example.com`;

/** Whether `user` is the Ghost User (`ghost<n>` with its own address). */
export const isGhostUser = (user: Pick<User, 'username' | 'email'>) => /^ghost\d*$/.test(user.username) && user.email.toLowerCase() === emailOf(user.username);

export async function ghostUser(users: Pick<UserService, 'findByUsername' | 'create'>): Promise<User> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const username = attempt === 0 ? 'ghost' : `ghost${attempt}`;
    const isGhost = (user: User | undefined) => user !== undefined && user.email.toLowerCase() === emailOf(username);
    const found = await users.findByUsername(username);
    if (found) {
      if (isGhost(found)) return found;
      continue;
    }
    try {
      return await users.create({ username, name: 'Ghost User', email: emailOf(username), password: null, canCreateGroup: false, projectsLimit: 0 });
    } catch (error) {
      // Another deletion created it meanwhile, or someone holds the address: look again, or take the next name.
      const raced = await users.findByUsername(username);
      if (isGhost(raced)) return raced as User;
      if (raced === undefined && attempt === ATTEMPTS - 1) throw error;
    }
  }
  throw new Error('No free ghost user name');
}
