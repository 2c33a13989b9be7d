/** Notes on any noteable: system notes, comments, thread replies and their rules. */
import { randomBytes } from 'node:crypto';
import { badRequest, forbidden, longerThan, notFound, recordNotFound, TEXT_LIMIT, unknownRoute, type EventBus, type RateLimitService } from '@forgekit/kernel';
import {
  noteEvents,
  type Note,
  type NoteFieldExtension,
  type NoteableOptions,
  type NoteableResolver,
  type NoteableType,
  type NotesService,
  type SystemNote,
} from '../contracts.js';
import type { NoteRow } from '../entities/note.js';
import type { AwardEmojiService } from '../award-emoji/award-emoji-service.js';
import { awardOnlyName } from '../award-emoji/emoji-names.js';
import type { NoteStore, NewNote, NoteListQuery, ActivityFilter } from './note-store.js';
import { parseQuickActions } from './quick-action-parser.js';
import { mayAdminNote, mayRead, type NoteableInScope } from './note-viewer.js';

/** GitLab's discussion ids: 40 hex characters. */
export const newDiscussionId = () => randomBytes(20).toString('hex');

export type NoteType = 'DiscussionNote' | 'DiffNote';

export interface NoteInput {
  body: string;
  internal?: boolean | null;
  createdAt?: Date | null;
  type?: NoteType | null;
  position?: Record<string, unknown> | null;
  /** A reply: the thread it joins. */
  discussion?: readonly NoteRow[];
  /** `merge_request_diff_head_sha`, for `/merge`. */
  mergeRequestDiffHeadSha?: string | null;
}

/**
 * What creating a note did: a note (with what its quick actions changed); an award, for a body
 * made only of an award emoji (no note kept); or only quick actions, for a body of nothing else.
 */
export type CreateResult =
  | { kind: 'note'; note: NoteRow; changes: Record<string, unknown> }
  | { kind: 'award'; note: NewNote & { id: null } }
  | { kind: 'commands'; changes: Record<string, unknown>; summary: string[] };

interface Dependencies {
  store: NoteStore;
  awards: AwardEmojiService;
  rateLimits: RateLimitService;
  events: EventBus;
  /** The per-minute limit of note creation per user; 0 lets everything through. */
  createLimit: () => Promise<number>;
}

const EPOCH = new Date('1970-01-01T00:00:00Z');
const noteError = (messages: string) => badRequest(`Note ${messages}`);

export function createNoteService({ store, awards, rateLimits, events, createLimit }: Dependencies) {
  const resolvers = new Map<string, { noteableType: NoteableType; resolver: NoteableResolver }>();
  const optionsByType = new Map<NoteableType, NoteableOptions>();
  const fieldExtensions: NoteFieldExtension[] = [];

  const checkBody = (body: string) => {
    if (body.trim() === '') throw noteError('{:note=>["can\'t be blank"]}');
    if (longerThan(body, TEXT_LIMIT)) throw noteError(`is too long (maximum is ${TEXT_LIMIT} characters)`);
  };
  const emit = (event: (typeof noteEvents)['created'], note: NoteRow, userId: number) =>
    events.emit(event, {
      noteId: note.id,
      note: asNote(note),
      noteableType: note.noteableType,
      noteableId: note.noteableId,
      projectId: note.projectId,
      userId,
    });
  const resolvable = (noteableType: NoteableType, type: string | null, system: boolean) =>
    noteableType === 'MergeRequest' && !system && (type === 'DiscussionNote' || type === 'DiffNote');

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
          discussionId: newDiscussionId(),
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
      await awards.removeAllOf('Note', await store.idsOf({ noteableType, noteableId }));
      await awards.removeAllOf(noteableType, [noteableId]);
      await store.removeAllFor(noteableType, noteableId);
    },
    registerNoteable(noteableType: NoteableType, segment: string, resolver: NoteableResolver, options: NoteableOptions = {}): void {
      resolvers.set(segment, { noteableType, resolver });
      optionsByType.set(noteableType, options);
    },
    userNoteCounts: (noteableType: NoteableType, noteableIds: readonly number[]) => store.userNoteCounts(noteableType, noteableIds),
    awardVotes: (noteableType: NoteableType, noteableIds: readonly number[]) => awards.votes(noteableType, noteableIds),

    async findNote(id: number): Promise<Note | null> {
      const row = await store.findById(id);
      return row ? asNote(row) : null;
    },
    async latestOfProject(projectId: number): Promise<Note | null> {
      const row = await store.latestUserNoteOf(projectId);
      return row ? asNote(row) : null;
    },
    async resolveThreadOf(note: Note, userId: number): Promise<void> {
      if (note.discussionId === null) return;
      await store.resolveDiscussion(note.discussionId, { resolvedAt: new Date(), resolvedById: userId });
    },
    extendFields(extension: NoteFieldExtension): void {
      fieldExtensions.push(extension);
    },
    fieldExtensions: fieldExtensions as readonly NoteFieldExtension[],

    /** The noteable kind's check of diff positions, if it has one. */
    positionCheckOf: (noteableType: NoteableType) => optionsByType.get(noteableType)?.checkPosition,

    /** The resolver of a route segment; a kind no plugin serves is an unknown route. */
    resolverFor(segment: string) {
      const found = resolvers.get(segment);
      if (!found) throw unknownRoute();
      return found;
    },
    list: (query: NoteListQuery) => store.list(query),
    count: (scope: NoteableInScope, activity: ActivityFilter) => store.count(scopeOf(scope), activity),
    all: (scope: NoteableInScope) => store.all(scopeOf(scope)),
    ofDiscussion: (scope: NoteableInScope, discussionId: string) => store.ofDiscussion(scopeOf(scope), discussionId),

    /** A note of the noteable the caller may read: `404 Not found` when there is none, `404 Note Not Found` when it is hidden. */
    async find({ noteableType, noteable, viewer }: NoteableInScope, id: number): Promise<NoteRow> {
      const note = await store.find(noteableType, noteable.id, id);
      if (!note) throw recordNotFound();
      if (!mayRead(viewer, note)) throw notFound('Note');
      return note;
    },

    async create(scope: NoteableInScope, input: NoteInput): Promise<CreateResult> {
      const { noteableType, noteable, viewer } = scope;
      if (noteable.discussionLocked && !viewer.isMember) throw forbidden();
      const limit = await createLimit();
      if (limit > 0) await rateLimits.consume(`notes_create:${viewer.user.id}`, { points: limit, durationSeconds: 60 });
      checkBody(input.body);
      const quickActions = optionsByType.get(noteableType)?.quickActions;
      let parsed = parseQuickActions(input.body, quickActions?.names ?? []);
      if (parsed.actions.length > 0 && quickActions?.available) {
        // Commands the author may not use now stay in the note as text, as GitLab leaves them.
        parsed = parseQuickActions(input.body, await quickActions.available(viewer.user, noteable));
      }
      const ran =
        parsed.actions.length > 0
          ? await quickActions!.run(viewer.user, noteable, parsed.actions, { mergeRequestDiffHeadSha: input.mergeRequestDiffHeadSha ?? null })
          : null;
      if (ran && parsed.text === '') return { kind: 'commands', changes: ran.changes, summary: ran.summary };
      const body = parsed.text;
      const [first] = input.discussion ?? [];
      const now = new Date();
      const createdAt = viewer.canSetCreatedAt && input.createdAt && input.createdAt > EPOCH ? input.createdAt : now;
      const type = first ? (first.type ?? 'DiscussionNote') : (input.type ?? null);
      const row: NewNote = {
        noteableType,
        noteableId: noteable.id,
        noteableIid: noteable.iid,
        projectId: noteable.projectId,
        authorId: viewer.user.id,
        body,
        system: false,
        // Internal needs Reporter; below that it is dropped, not refused. Replies follow their thread.
        internal: first ? first.internal : Boolean(input.internal) && viewer.canSeeInternal,
        type,
        discussionId: first?.discussionId ?? newDiscussionId(),
        position: input.position ? JSON.stringify(input.position) : null,
        lineCode: null,
        commitId: null,
        resolvable: resolvable(noteableType, type, false),
        resolvedAt: null,
        resolvedById: null,
        createdAt,
        updatedAt: createdAt,
      };
      const award = first || input.type ? null : await awardOnlyName(body);
      if (award) {
        await awards.give({ awardableType: noteableType, awardableId: noteable.id }, noteable.projectId, viewer.user.id, award);
        return { kind: 'award', note: { ...row, id: null } };
      }
      if (first && first.type === null) {
        // Replying to a lone comment turns it into a thread.
        await store.update(first.id, { type: 'DiscussionNote' });
      }
      const note = { ...row, id: await store.insert(row) };
      await emit(noteEvents.created, note, viewer.user.id);
      return { kind: 'note', note, changes: ran?.changes ?? {} };
    },

    async update(scope: NoteableInScope, note: NoteRow, changes: { body?: string | null; internal?: boolean | null }): Promise<NoteRow> {
      if (!mayAdminNote(scope.viewer, note)) throw forbidden();
      const patch: Partial<NoteRow> = {};
      if (changes.body !== undefined && changes.body !== null) {
        checkBody(changes.body);
        patch.body = changes.body;
      }
      if (changes.internal !== undefined && changes.internal !== null && scope.viewer.canSeeInternal) patch.internal = changes.internal;
      if (Object.keys(patch).length === 0) return note;
      patch.updatedAt = new Date();
      await store.update(note.id, patch);
      const updated = { ...note, ...patch };
      await emit(noteEvents.updated, updated, scope.viewer.user.id);
      return updated;
    },

    async resolve(scope: NoteableInScope, note: NoteRow, resolved: boolean): Promise<NoteRow> {
      if (!scope.viewer.canResolve && note.authorId !== scope.viewer.user.id) throw forbidden();
      if (!note.resolvable) throw badRequest('Note is not resolvable');
      const changes = resolved ? { resolvedAt: new Date(), resolvedById: scope.viewer.user.id } : { resolvedAt: null, resolvedById: null };
      await store.update(note.id, changes);
      return { ...note, ...changes };
    },

    /** Resolves or reopens every resolvable note of a thread; 403 for callers who may not. */
    async resolveDiscussion(scope: NoteableInScope, notes: readonly NoteRow[], resolved: boolean): Promise<void> {
      if (!notes.some((note) => note.resolvable)) throw forbidden();
      if (!scope.viewer.canResolve) throw forbidden();
      const changes = resolved ? { resolvedAt: new Date(), resolvedById: scope.viewer.user.id } : { resolvedAt: null, resolvedById: null };
      await store.resolveDiscussion(notes[0]!.discussionId!, changes);
    },

    async remove(scope: NoteableInScope, note: NoteRow): Promise<void> {
      if (!mayAdminNote(scope.viewer, note)) throw forbidden();
      await awards.removeAllOf('Note', [note.id]);
      await store.remove(note.id);
      await emit(noteEvents.deleted, note, scope.viewer.user.id);
    },

    async removeAllOfProject(projectId: number): Promise<void> {
      await awards.removeAllOfProject(projectId);
      await store.removeAllOfProject(projectId);
    },
    handOver: store.handOver,
    authoredAny: store.authoredAny,
  } satisfies NotesService & Record<string, unknown>;
  return service;
}

/** The contract's view of a stored note. */
export function asNote(row: NoteRow): Note {
  return {
    id: row.id,
    noteableType: row.noteableType,
    noteableId: row.noteableId,
    noteableIid: row.noteableIid ?? null,
    projectId: row.projectId ?? null,
    authorId: row.authorId,
    body: row.body,
    system: row.system,
    type: row.type ?? null,
    discussionId: row.discussionId ?? null,
    position: row.position ? JSON.parse(row.position) : null,
    resolved: row.resolvedAt !== null,
    internal: row.internal,
    lineCode: row.lineCode ?? null,
    commitId: row.commitId ?? null,
    resolvedAt: row.resolvedAt ?? null,
    resolvedById: row.resolvedById ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const scopeOf = ({ noteableType, noteable, viewer }: NoteableInScope) => ({ noteableType, noteableId: noteable.id, withInternal: viewer.canSeeInternal });

export type NoteService = ReturnType<typeof createNoteService>;
