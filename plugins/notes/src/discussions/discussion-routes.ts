/** `/projects/:id/<issues|merge_requests|snippets>/:noteable_id/discussions`: threads of notes, replies and resolution. */
import {
  badRequest,
  checkUnmodifiedSince,
  created,
  defineRoute,
  f,
  forbidden,
  JsonText,
  noContent,
  notFound,
  page,
  params,
  recordNotFound,
  rules,
  type Route,
} from '@forgekit/kernel';
import type { NoteRow } from '../entities/note.js';
import { commandsOnlyAnswer, noteBodyParams } from '../notes/note-routes.js';
import { noteCommandsSchema, noteSchema } from '../notes/note-schemas.js';
import { discussionSchema } from './discussion-schemas.js';
import type { NotePresenter, PresentedNote } from '../notes/note-presenter.js';
import type { NoteService } from '../notes/note-service.js';
import { mayAdminNote, type NoteableInScope } from '../notes/note-viewer.js';
import { NOTEABLE_SEGMENTS, type NoteableScopes } from '../notes/noteable-scope.js';

const lineRangeEnd = f.hash({
  line_code: f.optional(f.string()),
  type: f.optional(f.string()),
  old_line: f.optional(f.integer()),
  new_line: f.optional(f.integer()),
});

/** A diff note's position (merge requests): the merge-request plugin checks it against the diff. */
const positionField = f.hash({
  base_sha: f.string(),
  start_sha: f.string(),
  head_sha: f.string(),
  position_type: f.values(['text', 'image', 'file'] as const),
  new_path: f.optional(f.string()),
  old_path: f.optional(f.string()),
  new_line: f.optional(f.integer()),
  old_line: f.optional(f.integer()),
  width: f.optional(f.integer()),
  height: f.optional(f.integer()),
  x: f.optional(f.integer()),
  y: f.optional(f.integer()),
  line_range: f.optional(f.hash({ start: f.optional(lineRangeEnd), end: f.optional(lineRangeEnd) })),
});

/** The position as stored and echoed: every key GitLab answers, absent ones null. */
function storedPosition(given: Record<string, unknown>): Record<string, unknown> {
  const base = {
    base_sha: given.base_sha,
    start_sha: given.start_sha,
    head_sha: given.head_sha,
    old_path: given.old_path ?? null,
    new_path: given.new_path ?? null,
    position_type: given.position_type,
  };
  if (given.position_type === 'image') return { ...base, width: given.width ?? null, height: given.height ?? null, x: given.x ?? null, y: given.y ?? null };
  return { ...base, old_line: given.old_line ?? null, new_line: given.new_line ?? null, line_range: given.line_range ?? null };
}

/** Notes grouped by thread, threads in the order their first note came. */
function threads(notes: readonly NoteRow[]): NoteRow[][] {
  const byId = new Map<string, NoteRow[]>();
  for (const note of notes) {
    const key = note.discussionId ?? `note-${note.id}`;
    const thread = byId.get(key);
    if (thread) thread.push(note);
    else byId.set(key, [note]);
  }
  return [...byId.values()];
}

export function discussionRoutes(service: NoteService, scopes: NoteableScopes, present: NotePresenter): Route[] {
  const discussionEntity = (notes: readonly NoteRow[], presented: Awaited<ReturnType<NotePresenter>>) => ({
    id: notes[0]!.discussionId,
    individual_note: notes.length === 1 && notes[0]!.type === null,
    notes: presented,
  });
  /**
   * The discussion entity's JSON around its notes' kept texts. Written out by hand so a cached
   * note's text is joined as it is: stringifying the entity would parse every `JsonText` again.
   */
  const discussionJson = (notes: readonly NoteRow[], presented: readonly (JsonText | PresentedNote)[]) => {
    const { id, individual_note } = discussionEntity(notes, []);
    const texts = presented.map((note) => (note instanceof JsonText ? note.text : JSON.stringify(note)));
    return new JsonText(`{"id":${JSON.stringify(id)},"individual_note":${individual_note},"notes":[${texts.join(',')}]}`);
  };
  const presentDiscussion = async (notes: readonly NoteRow[], externalUrl: string) => discussionEntity(notes, await present(notes, externalUrl));
  const discussionOf = async (scope: NoteableInScope, discussionId: string) => {
    const notes = await service.ofDiscussion(scope, discussionId);
    if (notes.length === 0) throw notFound('Discussion');
    return notes;
  };
  const noteOf = (notes: readonly NoteRow[], noteId: number) => {
    const note = notes.find((candidate) => candidate.id === noteId);
    if (!note) throw recordNotFound();
    return note;
  };

  return NOTEABLE_SEGMENTS.flatMap((kind) => {
    const path = `/projects/:id/${kind.segment}/:${kind.param}/discussions`;
    const before = (ctx: Parameters<NoteableScopes>[0]) => scopes(ctx, kind);
    return [
      defineRoute({
        method: 'GET',
        path,
        response: { schema: discussionSchema },
        paginated: true,
        before,
        async handler(ctx, _input, scope) {
          const all = threads(await service.all(scope));
          const { perPage, offset } = ctx.page;
          // The page's notes are presented together, so authors and added fields are read once per page,
          // and from the presented cache the notes list keeps.
          const shown = all.slice(offset, offset + perPage);
          const presented = await present.json(shown.flat(), ctx.externalUrl);
          let next = 0;
          const items = shown.map((notes) => discussionJson(notes, presented.slice(next, (next += notes.length))));
          return page(items, all.length);
        },
      }),
      defineRoute({
        method: 'GET',
        path: `${path}/:discussion_id`,
        response: { schema: discussionSchema },
        before,
        async handler(ctx, _input, scope) {
          return presentDiscussion(await discussionOf(scope, ctx.params.discussion_id), ctx.externalUrl);
        },
      }),
      defineRoute({
        method: 'POST',
        path,
        response: { schema: discussionSchema, alternatives: { 202: noteCommandsSchema }, errors: [429] },
        input: params({ ...noteBodyParams, position: f.optional(positionField), commit_id: f.optional(f.string()) }),
        before,
        async handler(ctx, input, scope) {
          const checkPosition = service.positionCheckOf(scope.noteableType);
          if (input.position && !checkPosition && scope.noteableType !== 'MergeRequest')
            throw badRequest('Note {:position=>["is not supported for this noteable"]}');
          if (input.position && checkPosition) await checkPosition(scope.noteable, storedPosition(input.position));
          const result = await service.create(scope, {
            body: input.body,
            internal: input.internal ?? input.confidential,
            createdAt: input.created_at,
            type: input.position ? 'DiffNote' : 'DiscussionNote',
            position: input.position ? storedPosition(input.position) : null,
          });
          if (result.kind === 'commands') return commandsOnlyAnswer(result);
          if (result.kind !== 'note') throw badRequest('Note {:note=>["can\'t be blank"]}');
          return created(await presentDiscussion([result.note], ctx.externalUrl));
        },
      }),
      defineRoute({
        method: 'PUT',
        path: `${path}/:discussion_id`,
        response: { schema: discussionSchema },
        input: params({ resolved: f.boolean() }),
        before,
        async handler(ctx, { resolved }, scope) {
          const notes = await discussionOf(scope, ctx.params.discussion_id);
          await service.resolveDiscussion(scope, notes, resolved);
          return presentDiscussion(await discussionOf(scope, ctx.params.discussion_id), ctx.externalUrl);
        },
      }),
      defineRoute({
        method: 'POST',
        path: `${path}/:discussion_id/notes`,
        response: { schema: noteSchema, alternatives: { 202: noteCommandsSchema }, errors: [429] },
        input: params(noteBodyParams),
        before,
        async handler(ctx, input, scope) {
          const notes = await discussionOf(scope, ctx.params.discussion_id);
          if (notes[0]!.system) throw badRequest('Discussion can not be replied to.');
          const result = await service.create(scope, { body: input.body, createdAt: input.created_at, discussion: notes });
          if (result.kind === 'commands') return commandsOnlyAnswer(result);
          if (result.kind !== 'note') throw badRequest('Note {:note=>["can\'t be blank"]}');
          const [note] = await present([result.note], ctx.externalUrl);
          return created(note);
        },
      }),
      defineRoute({
        method: 'PUT',
        path: `${path}/:discussion_id/notes/:note_id`,
        response: { schema: noteSchema },
        input: params({ note_id: f.id(), body: f.optional(f.string()), resolved: f.optional(f.boolean()) }, rules.exactlyOneOf('body', 'resolved')),
        before,
        async handler(ctx, input, scope) {
          const note = noteOf(await discussionOf(scope, ctx.params.discussion_id), input.note_id);
          const changed =
            input.resolved !== undefined && input.resolved !== null
              ? await service.resolve(scope, note, input.resolved)
              : await service.update(scope, note, { body: input.body });
          const [presented] = await present([changed], ctx.externalUrl);
          return presented;
        },
      }),
      defineRoute({
        method: 'DELETE',
        path: `${path}/:discussion_id/notes/:note_id`,
        response: { status: 204, errors: [412] },
        input: params({ note_id: f.id() }),
        before,
        async handler(ctx, { note_id }, scope) {
          const note = noteOf(await discussionOf(scope, ctx.params.discussion_id), note_id);
          if (!mayAdminNote(scope.viewer, note)) throw forbidden();
          checkUnmodifiedSince(ctx.header('if-unmodified-since'), note.updatedAt);
          await service.remove(scope, note);
          return noContent();
        },
      }),
    ];
  });
}
