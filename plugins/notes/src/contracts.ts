/** What other plugins may use of notes: the recorder of system notes on any noteable, and the note routes of each noteable kind. */
import { createServiceRef, defineEvent, type Principal, type Transaction } from '@forgekit/kernel';

export type NoteableType = 'Issue' | 'MergeRequest' | 'Snippet' | 'WikiPage';

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
  tx?: Transaction;
}

/** The noteable a note route names, found for the caller; throws GitLab's 404s. */
export interface FoundNoteable {
  id: number;
  iid: number | null;
  projectId: number;
  /** A locked discussion takes comments from project members only. */
  discussionLocked?: boolean;
}

/** Finds the noteable of `/projects/:id/<segment>/:noteable_id/notes` for the caller (`noteableId` is the iid for issues and merge requests). */
export type NoteableResolver = (user: Principal, projectIdOrPath: string, noteableId: string) => Promise<FoundNoteable>;

/** A quick action written on its own line of a note body: `/label ~a ~b` is `{ name: 'label', args: '~a ~b' }`. */
export interface QuickAction {
  name: string;
  args: string;
}

/** What a noteable's quick actions did, as GitLab answers it. */
export interface QuickActionResult {
  /** `commands_changes`: e.g. `{ state_event: 'close', add_label_ids: [3] }`. */
  changes: Record<string, unknown>;
  /** One sentence per action run, e.g. `Closed this issue.` */
  summary: string[];
}

/** What the note request said besides its body, for the quick actions that need it. */
export interface QuickActionContext {
  /** `merge_request_diff_head_sha`: the head the author saw, which `/merge` needs. */
  mergeRequestDiffHeadSha?: string | null;
}

/** The quick actions a noteable kind understands, and how it runs them for the author of a note. */
export interface QuickActions {
  names: readonly string[];
  /**
   * The names the user may use on this noteable now (GitLab's per-command `condition`): a command
   * that is not available stays in the note as text. Without it, every name is.
   */
  available?(user: Principal, noteable: FoundNoteable): Promise<readonly string[]>;
  run(user: Principal, noteable: FoundNoteable, actions: readonly QuickAction[], context?: QuickActionContext): Promise<QuickActionResult>;
}

export interface NoteableOptions {
  quickActions?: QuickActions;
  /**
   * Checks a diff note's `position` (the hash GitLab takes on `POST .../discussions`) against
   * the noteable's diff; throws GitLab's 400 for a line outside it. Kinds without it take no positions.
   */
  checkPosition?(noteable: FoundNoteable, position: Readonly<Record<string, unknown>>): Promise<void>;
}

/** A note as other plugins see it. */
export interface Note {
  id: number;
  noteableType: NoteableType;
  noteableId: number;
  noteableIid: number | null;
  projectId: number | null;
  authorId: number;
  body: string;
  system: boolean;
  /** `DiscussionNote`, `DiffNote` or null for a lone comment. */
  type: string | null;
  discussionId: string | null;
  /** A diff note's position as GitLab answers it (`base_sha`, `head_sha`, `new_path`, `new_line`...). */
  position: Readonly<Record<string, unknown>> | null;
  resolved: boolean;
  internal: boolean;
  lineCode: string | null;
  commitId: string | null;
  resolvedAt: Date | null;
  resolvedById: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Fields another plugin adds to the answers of the notes given, by note id. Which notes it adds
 * fields to is decided from the database alone: a list page whose notes get none is kept under
 * the request's change mark; the fields themselves may read anything (a repository, say).
 */
export type NoteFieldExtension = (notes: readonly Note[]) => Promise<ReadonlyMap<number, Record<string, unknown>>>;

export interface NotesService {
  recordSystemNote(note: SystemNote): Promise<void>;
  removeAllFor(noteableType: NoteableType, noteableId: number): Promise<void>;
  /** Serves `GET /projects/:id/<segment>/:noteable_id/notes` for a noteable kind. */
  registerNoteable(noteableType: NoteableType, segment: string, resolver: NoteableResolver, options?: NoteableOptions): void;
  /** `user_notes_count` of several noteables: their notes that are not system notes. */
  userNoteCounts(noteableType: NoteableType, noteableIds: readonly number[]): Promise<ReadonlyMap<number, number>>;
  /** `upvotes` and `downvotes` of several noteables: their `thumbsup` and `thumbsdown` awards; noteables with neither are left out. */
  awardVotes(noteableType: NoteableType, noteableIds: readonly number[]): Promise<ReadonlyMap<number, { upvotes: number; downvotes: number }>>;
  findNote(id: number): Promise<Note | null>;
  /** The project's newest note that is not a system note (webhook tests describe it). */
  latestOfProject(projectId: number): Promise<Note | null>;
  /** Resolves the note's thread as `userId` did (a no-op for notes that are not resolvable). */
  resolveThreadOf(note: Note, userId: number): Promise<void>;
  /** Adds fields to every answer that shows notes. */
  extendFields(extension: NoteFieldExtension): void;
}

export const notesServiceRef = createServiceRef<NotesService>('notes.notes');

interface NoteEvent {
  noteId: number;
  /** The note as it is after the change (as it was, for a removal). */
  note: Note;
  noteableType: NoteableType;
  noteableId: number;
  projectId: number | null;
  /** Who wrote, changed or removed the note. */
  userId: number;
}

interface AwardEmojiEvent {
  awardId: number;
  name: string;
  /** `Note` for an award on a note. */
  awardableType: NoteableType | 'Note';
  awardableId: number;
  projectId: number | null;
  userId: number;
}

/** Carry what GitLab's `object_kind: note` and `emoji` webhook payloads need: ids and who. */
export const noteEvents = {
  created: defineEvent<NoteEvent>('note.created'),
  updated: defineEvent<NoteEvent>('note.updated'),
  deleted: defineEvent<NoteEvent>('note.deleted'),
  awarded: defineEvent<AwardEmojiEvent>('award_emoji.awarded'),
  revoked: defineEvent<AwardEmojiEvent>('award_emoji.revoked'),
};
