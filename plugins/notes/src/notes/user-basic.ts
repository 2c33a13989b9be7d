/** GitLab's UserBasic entity, from core's user row. */
import type { UserRow } from '@forgekit/plugin-core/contracts';

export function userBasic(user: UserRow, externalUrl: string) {
  return {
    id: user.id,
    username: user.username,
    public_email: user.public_email ?? null,
    name: user.name,
    state: user.state,
    locked: false,
    avatar_url: null,
    web_url: `${externalUrl}/${user.username}`,
  };
}
