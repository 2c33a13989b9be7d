/** GitLab's UserBasic of several users, read in one query, by id. */
import { userBasic, type User, type UserService } from '@forgekit/plugin-core/contracts';

/** The users of these ids that exist, read in one query. */
export async function usersById(users: UserService, ids: Iterable<number>): Promise<Map<number, User>> {
  return new Map((await users.findByIds([...new Set(ids)])).map((user) => [user.id, user] as const));
}

export async function presentUsers(users: UserService, ids: Iterable<number>, externalUrl: string): Promise<Map<number, Record<string, unknown>>> {
  return new Map([...(await usersById(users, ids))].map(([id, user]) => [id, userBasic(user, externalUrl)] as const));
}
