/** Stand-in noteable kinds for the notes plugin's own tests: issue iid 7 (noteable 700) and merge request iid 3 (noteable 300) of any project the caller can read. */
import { badRequest, definePlugin, recordNotFound } from '@forgekit/kernel';
import { coreAccessRef } from '@forgekit/plugin-core/contracts';
import { noteEvents, notesServiceRef } from '../contracts.js';

/** The note and award events the fixture saw, as `name:id`. */
export const seenEvents: string[] = [];

export const noteableFixture = definePlugin({
  id: 'noteable-fixture',
  compatibility: '^0.1.0',
  requires: [notesServiceRef, coreAccessRef],
  register(ctx) {
    const access = ctx.resolve(coreAccessRef);
    const notes = ctx.resolve(notesServiceRef);
    notes.registerNoteable('Issue', 'issues', async (user, projectIdOrPath, iid) => {
      const { project } = await access.requireProject(user, projectIdOrPath);
      if (iid !== '7') throw recordNotFound();
      return { id: 700, iid: 7, projectId: project.id };
    });
    notes.registerNoteable(
      'MergeRequest',
      'merge_requests',
      async (user, projectIdOrPath, iid) => {
        const { project } = await access.requireProject(user, projectIdOrPath);
        if (iid !== '3') throw recordNotFound();
        return { id: 300, iid: 3, projectId: project.id };
      },
      {
        async checkPosition(_noteable, position) {
          if (position.new_line === 999) throw badRequest('Note {:line_code=>["can\'t be blank", "must be a valid line code"]}');
        },
      },
    );
    for (const [name, event] of Object.entries(noteEvents)) {
      ctx.events.on(event, (payload: { noteId?: number; awardId?: number }) => {
        seenEvents.push(`${name}:${payload.noteId ?? payload.awardId}`);
      });
    }
  },
});
