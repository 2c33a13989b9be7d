/** GitLab's Note entity, fields in declaration order. */
import type { NoteRow } from '../entities/note.js';

export function presentNote(note: NoteRow, author: Record<string, unknown> | null) {
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
    resolvable: note.resolvable,
    confidential: note.internal,
    internal: note.internal,
    imported: false,
    imported_from: 'none',
    noteable_iid: note.noteableIid,
    commands_changes: {},
  };
}
