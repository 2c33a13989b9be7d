import { definePlugin, kernelServices } from '@forgekit/kernel';
import { coreEvents, coreProjectsRef, coreUsersRef } from '@forgekit/plugin-core/contracts';
import { mergeRequestEvents, mergeRequestsServiceRef } from '@forgekit/plugin-merge-requests/contracts';
import { noteEvents, notesServiceRef } from '@forgekit/plugin-notes/contracts';
import { branchProtectionRef, repositoryReadRef, repositoryWriteRef } from '@forgekit/plugin-repositories/contracts';
import { SuggestionEntity } from './entities/suggestion.js';
import { init } from './migrations/202611271230-init.js';
import { presentSuggestion } from './suggestions/suggestion-presenter.js';
import { suggestionRoutes } from './suggestions/suggestion-routes.js';
import { createSuggestionService, type ShownSuggestion } from './suggestions/suggestion-service.js';
import { createSuggestionStore } from './suggestions/suggestion-store.js';

/** Suggestions in merge request diff notes (`suggestion:-A+B` blocks), applied as one commit on the source branch. */
export const suggestionsPlugin = definePlugin({
  id: 'suggestions',
  compatibility: '^0.1.0',
  entities: [SuggestionEntity],
  migrations: [init],
  requires: [coreProjectsRef, coreUsersRef, notesServiceRef, mergeRequestsServiceRef, repositoryReadRef, repositoryWriteRef, branchProtectionRef],
  register(ctx) {
    const notes = ctx.resolve(notesServiceRef);
    const service = createSuggestionService({
      store: createSuggestionStore(ctx.resolve(kernelServices.database)),
      notes,
      mergeRequests: ctx.resolve(mergeRequestsServiceRef),
      projects: ctx.resolve(coreProjectsRef),
      users: ctx.resolve(coreUsersRef),
      reads: ctx.resolve(repositoryReadRef),
      writes: ctx.resolve(repositoryWriteRef),
      protection: ctx.resolve(branchProtectionRef),
    });
    ctx.routes(...suggestionRoutes(service));

    notes.extendFields(async (shown) => {
      const diffNotes = shown.filter((note) => note.type === 'DiffNote' && note.noteableType === 'MergeRequest');
      const byNote = diffNotes.length > 0 ? await service.ofNotes(diffNotes) : new Map<number, ShownSuggestion[]>();
      return new Map(
        diffNotes.map(({ id: noteId }) => [
          noteId,
          { suggestions: (byNote.get(noteId) ?? []).map((suggestion) => presentSuggestion(suggestion, suggestion.appliable)) },
        ]),
      );
    });
    const sync = ({ noteId, noteableType }: { noteId: number; noteableType: string }) =>
      noteableType === 'MergeRequest' ? service.syncNote(noteId) : undefined;
    ctx.events.on(noteEvents.created, sync);
    ctx.events.on(noteEvents.updated, sync);
    ctx.events.on(noteEvents.deleted, ({ noteId }) => service.removeForNote(noteId));
    ctx.events.on(mergeRequestEvents.deleted, ({ mergeRequestId }) => service.removeForMergeRequest(mergeRequestId));
    ctx.events.on(coreEvents.projectDeleted, ({ projectId }) => service.removeForProject(projectId));
  },
});
