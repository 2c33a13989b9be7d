/** What other plugins may use of notes: the recorder of system notes on any noteable. */
import { createServiceRef } from '@forgekit/kernel';
import type { EntityManager } from '@forgekit/kernel/orm';

export type NoteableType = 'Issue' | 'MergeRequest' | 'Snippet';

export interface SystemNote {
  noteableType: NoteableType;
  noteableId: number;
  /** The noteable's iid, where it has one. */
  noteableIid: number | null;
  projectId: number | null;
  authorId: number;
  /** GitLab's text for the change, e.g. `changed title from **a** to **b**`. */
  body: string;
  /** Record in the caller's transaction. */
  em?: EntityManager;
}

export interface NotesService {
  recordSystemNote(note: SystemNote): Promise<void>;
  removeAllFor(noteableType: NoteableType, noteableId: number): Promise<void>;
}

export const notesServiceRef = createServiceRef<NotesService>('notes.notes');
