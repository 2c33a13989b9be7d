/** GitLab's Note entity, fields in declaration order. */
import type { UserService } from '@forgekit/plugin-core/contracts';
import type { NoteFieldExtension } from '../contracts.js';
import type { NoteRow } from '../entities/note.js';
import { asNote } from './note-service.js';
import { presentUsers } from './present-users.js';

type Author = Record<string, unknown> | null;
type PresentableNote = Omit<NoteRow, 'id'> & { id: number | null };

export function presentNote(note: PresentableNote, author: Author, resolvedBy: Author = null) {
  return {
    id: note.id,
    type: note.type,
    body: note.body,
    attachment: null,
    author,
    created_at: note.createdAt.toISOString(),
    updated_at: note.updatedAt.toISOString(),
    system: note.system,
    noteable_id: note.noteableId,
    noteable_type: note.noteableType,
    project_id: note.projectId,
    ...(note.type === 'DiffNote' ? { commit_id: note.commitId, position: note.position ? JSON.parse(note.position) : null } : {}),
    resolvable: note.resolvable,
    ...(note.resolvable ? { resolved: note.resolvedAt !== null, resolved_by: resolvedBy, resolved_at: note.resolvedAt?.toISOString() ?? null } : {}),
    confidential: note.internal,
    internal: note.internal,
    imported: false,
    imported_from: 'none',
    noteable_iid: note.noteableIid,
    commands_changes: {},
  };
}

export type PresentedNote = ReturnType<typeof presentNote>;

/** Presents notes with their authors (and resolvers) read in one query, and the fields other plugins add. */
export function notePresenter(users: UserService, extensions: readonly NoteFieldExtension[]) {
  return async (notes: readonly PresentableNote[], externalUrl: string): Promise<PresentedNote[]> => {
    const ids = notes.flatMap((note) => (note.resolvedById == null ? [note.authorId] : [note.authorId, note.resolvedById]));
    const found = await presentUsers(users, ids, externalUrl);
    const stored = notes.filter((note): note is NoteRow => note.id !== null).map(asNote);
    const extra = stored.length === 0 ? [] : await Promise.all(extensions.map((extension) => extension(stored)));
    return notes.map((note) => {
      const presented = presentNote(note, found.get(note.authorId) ?? null, note.resolvedById == null ? null : (found.get(note.resolvedById) ?? null));
      for (const fields of extra) Object.assign(presented, note.id === null ? {} : fields.get(note.id));
      return presented;
    });
  };
}

export type NotePresenter = ReturnType<typeof notePresenter>;
