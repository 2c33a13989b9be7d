/** GitLab's UserBasic of several users, read in one query, by id. */
import { userBasic, type UserService } from '@forgekit/plugin-core/contracts';

export async function presentUsers(users: UserService, ids: Iterable<number>, externalUrl: string): Promise<Map<number, Record<string, unknown>>> {
  return new Map((await users.findByIds([...new Set(ids)])).map((user) => [user.id, userBasic(user, externalUrl)] as const));
}
