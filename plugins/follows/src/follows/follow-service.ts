/**
 * Users following users (GitLab's `Users::UserFollowUser`): follow and unfollow with their
 * no-ops, the follower and following lists, and the counts on the user entity. Lists and
 * counts leave out blocked and deactivated users (GitLab's `active` scope); a private or
 * blocked user's lists are hidden from all but themselves and administrators.
 */
import { apiError, forbidden, notFound, type Principal } from '@forgekit/kernel';
import type { UserFieldExtension, UserService } from '@forgekit/plugin-core/contracts';
import { hasPrivateProfile, isActive, isBlocked, userIdOf, type CoreUser } from '../shared/core-fields.js';
import type { FollowStore } from './follow-store.js';

/** GitLab's `MAX_FOLLOWEE_LIMIT`: how many users one user may follow. */
export const MAX_FOLLOWEES = 300;

const limitMessage = `You can't follow more than ${MAX_FOLLOWEES} users. To follow more users, unfollow some others.`;

export function createFollowService(store: FollowStore, users: UserService) {
  async function userOr404(id: number): Promise<CoreUser> {
    const user = await users.findById(id);
    if (!user) throw notFound('User');
    return user;
  }

  /** GitLab's `read_user_profile`: private and blocked profiles show only to their user and administrators. */
  const profileReadable = (viewer: Principal, user: CoreUser) =>
    viewer.isAdmin || viewer.id === userIdOf(user) || !(hasPrivateProfile(user) || isBlocked(user));

  /** A list's users: the active ones, by id, with the page asked for and their total. */
  async function pageOf(ids: number[], limit: number, offset: number) {
    const active = (await users.findByIds(ids)).filter(isActive);
    return { users: active.slice(offset, offset + limit), total: active.length };
  }

  /** The user whose list a caller asks for: signed in (403 otherwise), and allowed to read the profile (404 otherwise). */
  async function listOwner(viewer: Principal | null, id: number) {
    if (!viewer) throw forbidden('Not authorized!');
    const user = await users.findById(id);
    if (!user || !profileReadable(viewer, user)) throw notFound('User');
    return user;
  }

  /** `followers`, `following` and `is_followed` on core's user answers, where core shows them. */
  const countFields: UserFieldExtension = async (entries, viewer) => {
    const shown = entries.filter(({ body }) => 'followers' in body || 'following' in body || 'is_followed' in body);
    if (shown.length === 0) return;
    const follows = await store.involving(shown.map(({ user }) => userIdOf(user)));
    const others = [...new Set(follows.flatMap((follow) => [follow.followerId, follow.followeeId]))];
    const active = new Set((await users.findByIds(others)).filter(isActive).map(userIdOf));
    for (const { user, body } of shown) {
      const id = userIdOf(user);
      if ('followers' in body) body.followers = follows.filter((f) => f.followeeId === id && active.has(f.followerId)).length;
      if ('following' in body) body.following = follows.filter((f) => f.followerId === id && active.has(f.followeeId)).length;
      if ('is_followed' in body) body.is_followed = !!viewer && follows.some((f) => f.followerId === viewer.id && f.followeeId === id);
    }
  };

  return {
    countFields,

    /** The followed user, or null when nothing changed (already followed, or oneself): GitLab's 304. */
    async follow(follower: Principal, followeeId: number): Promise<CoreUser | null> {
      const followee = await userOr404(followeeId);
      if (userIdOf(followee) === follower.id) return null;
      if (await store.follow(follower.id, userIdOf(followee), MAX_FOLLOWEES)) return followee;
      if (await store.isFollowing(follower.id, userIdOf(followee))) return null;
      throw apiError(400, limitMessage);
    },

    /** The unfollowed user, or null when there was no follow (304). */
    async unfollow(follower: Principal, followeeId: number): Promise<CoreUser | null> {
      const followee = await userOr404(followeeId);
      return (await store.unfollow(follower.id, userIdOf(followee))) ? followee : null;
    },

    async followers(viewer: Principal | null, id: number, limit: number, offset: number) {
      const user = await listOwner(viewer, id);
      return pageOf(await store.followerIdsOf(userIdOf(user)), limit, offset);
    },

    async following(viewer: Principal | null, id: number, limit: number, offset: number) {
      const user = await listOwner(viewer, id);
      return pageOf(await store.followeeIdsOf(userIdOf(user)), limit, offset);
    },

    removeAllOf: (userId: number) => store.removeAllOf(userId),
  };
}

export type FollowService = ReturnType<typeof createFollowService>;
