import type { Principal } from '@forgekit/kernel';
import type { User } from '../contracts.js';

/** The principal a user stands for, to ask what they may read (e.g. whether an assignee can see a project). */
export function principalOf(user: User): Principal {
  const flag = (value: unknown) => value === true || value === 1 || value === '1' || value === 't';
  return { id: user.id, username: user.username, name: user.name, isAdmin: flag(user.admin), external: flag(user.external), state: user.state };
}
