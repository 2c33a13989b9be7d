import { kernelServices, definePlugin, f } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreSettingsRef, coreUsersRef, ghostUser } from '@forgekit/plugin-core/contracts';
import { awardEmojiRoutes } from './award-emoji/award-emoji-routes.js';
import { createAwardEmojiService } from './award-emoji/award-emoji-service.js';
import { createAwardEmojiStore } from './award-emoji/award-emoji-store.js';
import { notesServiceRef } from './contracts.js';
import { discussionRoutes } from './discussions/discussion-routes.js';
import { AwardEmojiEntity } from './entities/award-emoji.js';
import { NoteEntity } from './entities/note.js';
import { init } from './migrations/202611242300-init.js';
import { awardEmojiAndDiscussions } from './migrations/202611271100-award-emoji-and-discussions.js';
import { notesPageOrder } from './migrations/202611271800-notes-page-order.js';
import { noteLockVersion } from './migrations/202611271810-note-lock-version.js';
import { notePresenter } from './notes/note-presenter.js';
import { noteRoutes } from './notes/note-routes.js';
import { createNoteService } from './notes/note-service.js';
import { createNoteStore } from './notes/note-store.js';
import { noteableScopes } from './notes/noteable-scope.js';

/** GitLab's default `notes_create_limit`: notes per user per minute. */
const NOTES_CREATE_LIMIT = 300;

/** Notes on issues, merge requests, snippets and wiki pages: comments, threads, award emoji and system notes. */
export const notesPlugin = definePlugin({
  id: 'notes',
  compatibility: '^0.1.0',
  entities: [NoteEntity, AwardEmojiEntity],
  migrations: [init, awardEmojiAndDiscussions, notesPageOrder, noteLockVersion],
  requires: [coreUsersRef, coreAccessRef, coreSettingsRef],
  provides: [notesServiceRef],
  register(ctx) {
    const database = ctx.resolve(kernelServices.database);
    const users = ctx.resolve(coreUsersRef);
    const settings = ctx.resolve(coreSettingsRef);
    settings.define(ctx.pluginId, 'notes_create_limit', f.integer({ min: 0, max: 2_147_483_647 }), NOTES_CREATE_LIMIT);

    const awards = createAwardEmojiService(createAwardEmojiStore(database), ctx.events);
    const service = createNoteService({
      store: createNoteStore(database),
      awards,
      rateLimits: ctx.resolve(kernelServices.rateLimits),
      events: ctx.events,
      createLimit: async () => Number(await settings.get('notes_create_limit')),
    });
    ctx.provide(notesServiceRef, service);

    const scopes = noteableScopes(service, ctx.resolve(coreAccessRef));
    const present = notePresenter(users, service.fieldExtensions, ctx.resolve(kernelServices.presented));
    ctx.routes(...noteRoutes(service, scopes, present), ...discussionRoutes(service, scopes, present), ...awardEmojiRoutes(awards, service, scopes, users));

    ctx.events.on(coreEvents.projectDeleted, async ({ projectId }) => {
      await service.removeAllOfProject(projectId);
    });
    ctx.events.on(coreEvents.userDeleted, async ({ userId }) => {
      await awards.removeAllOfUser(userId);
      // GitLab hands a deleted user's notes to the Ghost User.
      if (await service.authoredAny(userId)) await service.handOver(userId, (await ghostUser(users)).id);
    });
  },
});
