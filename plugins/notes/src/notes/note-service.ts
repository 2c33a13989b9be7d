/** System notes and note lists, on any noteable. */
import { unknownRoute } from '@forgekit/kernel';
import type { NoteableResolver, NoteableType, NotesService, SystemNote } from '../contracts.js';
import type { NoteListQuery, NoteStore } from './note-store.js';

export function createNoteService(store: NoteStore) {
  const resolvers = new Map<string, { noteableType: NoteableType; resolver: NoteableResolver }>();

  const service = {
    async recordSystemNote(note: SystemNote): Promise<void> {
      const now = new Date();
      await store.insert(
        {
          noteableType: note.noteableType,
          noteableId: note.noteableId,
          noteableIid: note.noteableIid,
          projectId: note.projectId,
          authorId: note.authorId,
          body: note.body,
          system: true,
          internal: false,
          type: null,
          discussionId: null,
          position: null,
          lineCode: null,
          commitId: null,
          resolvable: false,
          resolvedAt: null,
          resolvedById: null,
          createdAt: now,
          updatedAt: now,
        },
        note.tx,
      );
    },
    async removeAllFor(noteableType: NoteableType, noteableId: number): Promise<void> {
      await store.removeAllFor(noteableType, noteableId);
    },
    registerNoteable(noteableType: NoteableType, segment: string, resolver: NoteableResolver): void {
      resolvers.set(segment, { noteableType, resolver });
    },
    userNoteCounts: (noteableType: NoteableType, noteableIds: readonly number[]) => store.userNoteCounts(noteableType, noteableIds),

    /** The resolver of a route segment; a kind no plugin serves is an unknown route. */
    resolverFor(segment: string) {
      const found = resolvers.get(segment);
      if (!found) throw unknownRoute();
      return found;
    },
    list: (query: NoteListQuery) => store.list(query),
    count: (query: Pick<NoteListQuery, 'noteableType' | 'noteableId' | 'activity'>) => store.count(query),
    removeAllOfProject: (projectId: number) => store.removeAllOfProject(projectId),
  } satisfies NotesService & Record<string, unknown>;
  return service;
}

export type NoteService = ReturnType<typeof createNoteService>;
