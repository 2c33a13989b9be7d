/** GitLab's Note entity, fields in declaration order. */
import { sourceKey, versionKey, type FragmentCache, type JsonText } from '@forgekit/kernel';
import { userBasic, type User, type UserService } from '@forgekit/plugin-core/contracts';
import type { NoteFieldExtension } from '../contracts.js';
import type { NoteRow } from '../entities/note.js';
import { asNote } from './note-service.js';
import { usersById } from './present-users.js';

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

/**
 * Presents notes with their authors (and resolvers) read in one query, and the fields other plugins add.
 * `json` answers lists: a note's JSON comes from the presented cache, kept by the note's version and
 * its author's and resolver's (and the URL their links are built on); a note another plugin adds
 * fields to is presented afresh.
 */
export function notePresenter(users: UserService, extensions: readonly NoteFieldExtension[], cache?: FragmentCache) {
  async function presentEach<T>(
    notes: readonly PresentableNote[],
    externalUrl: string,
    each: (note: PresentableNote, body: () => PresentedNote, extended: boolean, people: ReadonlyMap<number, User>) => T,
  ): Promise<T[]> {
    const people = await usersById(
      users,
      notes.flatMap((note) => (note.resolvedById == null ? [note.authorId] : [note.authorId, note.resolvedById])),
    );
    const stored = notes.filter((note): note is NoteRow => note.id !== null).map(asNote);
    const extra = stored.length === 0 ? [] : await Promise.all(extensions.map((extension) => extension(stored)));
    const basics = new Map<number, Record<string, unknown> | null>();
    const basicOf = (id: number) => {
      let basic = basics.get(id);
      if (basic === undefined) {
        const user = people.get(id);
        basics.set(id, (basic = user ? userBasic(user, externalUrl) : null));
      }
      return basic;
    };
    return notes.map((note) => {
      const fields = note.id === null ? [] : extra.map((found) => found.get(note.id!)).filter((added) => added !== undefined);
      const body = () => {
        const presented = presentNote(note, basicOf(note.authorId), note.resolvedById == null ? null : basicOf(note.resolvedById));
        for (const added of fields) Object.assign(presented, added);
        return presented;
      };
      return each(note, body, fields.length > 0, people);
    });
  }

  const present = (notes: readonly PresentableNote[], externalUrl: string): Promise<PresentedNote[]> =>
    presentEach(notes, externalUrl, (_note, body) => body());

  function json(notes: readonly NoteRow[], externalUrl: string): Promise<(JsonText | PresentedNote)[]> {
    if (!cache?.enabled) return present(notes, externalUrl);
    return presentEach(notes, externalUrl, (note, body, extended, people) => {
      if (extended) return body();
      const userKey = (id: number) => sourceKey('User', id, people.get(id)?.lockVersion);
      const key = versionKey(
        'note',
        externalUrl,
        sourceKey('Note', note.id!, note.lockVersion),
        userKey(note.authorId),
        note.resolvedById == null ? '-' : userKey(note.resolvedById),
      );
      return cache.fragment(key, () => ({ body: body() })).json();
    });
  }

  return Object.assign(present, { json });
}

export type NotePresenter = ReturnType<typeof notePresenter>;
