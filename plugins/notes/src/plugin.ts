import { kernelServices, definePlugin } from '@forgekit/kernel';
import { coreEvents, coreUsersRef } from '@forgekit/plugin-core/contracts';
import { notesServiceRef } from './contracts.js';
import { NoteEntity } from './entities/note.js';
import { init } from './migrations/202611242300-init.js';
import { noteRoutes } from './notes/note-routes.js';
import { createNoteService } from './notes/note-service.js';
import { createNoteStore } from './notes/note-store.js';

/** Notes on issues, merge requests and snippets: the system-note recorder and the note lists. */
export const notesPlugin = definePlugin({
  id: 'notes',
  compatibility: '^0.1.0',
  entities: [NoteEntity],
  migrations: [init],
  requires: [coreUsersRef],
  provides: [notesServiceRef],
  register(ctx) {
    const service = createNoteService(createNoteStore(ctx.resolve(kernelServices.database)));
    ctx.provide(notesServiceRef, service);
    ctx.routes(...noteRoutes(service, ctx.resolve(coreUsersRef)));
    ctx.events.on(coreEvents.projectDeleted, async ({ projectId }) => {
      await service.removeAllOfProject(projectId);
    });
  },
});
