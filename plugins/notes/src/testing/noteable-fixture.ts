/** Stand-in noteable kinds for the notes plugin's own tests: issue iid 7 (noteable 700) and merge request iid 3 (noteable 300) of any project the caller can read. */
import { definePlugin, recordNotFound } from '@forgekit/kernel';
import { coreAccessRef } from '@forgekit/plugin-core/contracts';
import { notesServiceRef } from '../contracts.js';

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
    notes.registerNoteable('MergeRequest', 'merge_requests', async (user, projectIdOrPath, iid) => {
      const { project } = await access.requireProject(user, projectIdOrPath);
      if (iid !== '3') throw recordNotFound();
      return { id: 300, iid: 3, projectId: project.id };
    });
  },
});
