import { kernelServices, definePlugin } from '@forgekit/kernel';
import { coreEvents, coreUsersRef } from '@forgekit/plugin-core/contracts';
import { FollowEntity } from './entities/follow.js';
import { followRoutes } from './follows/follow-routes.js';
import { createFollowService } from './follows/follow-service.js';
import { createFollowStore } from './follows/follow-store.js';
import { init } from './migrations/202611271000-init.js';

/** Users following users: follow and unfollow, the follower and following lists, and the counts on user answers. */
export const followsPlugin = definePlugin({
  id: 'follows',
  compatibility: '^0.1.0',
  entities: [FollowEntity],
  migrations: [init],
  requires: [coreUsersRef],
  register(ctx) {
    const users = ctx.resolve(coreUsersRef);
    const service = createFollowService(createFollowStore(ctx.resolve(kernelServices.database)), users);
    ctx.routes(...followRoutes(service));
    users.extendFields(service.countFields);
    ctx.events.on(coreEvents.userDeleted, async ({ userId }) => {
      await service.removeAllOf(userId);
    });
  },
});
