/** `/projects/:id/<issues|merge_requests|snippets>/:noteable_id/notes[/:note_id]`. */
import {
  checkUnmodifiedSince,
  created,
  defineRoute,
  f,
  forbidden,
  keptPages,
  noContent,
  page,
  params,
  reply,
  totalFromRows,
  type Route,
} from '@forgekit/kernel';
import type { CreateResult, NoteService } from './note-service.js';
import type { NotePresenter } from './note-presenter.js';
import { noteCommandsSchema, noteSchema } from './note-schemas.js';
import { NOTEABLE_SEGMENTS, type NoteableScopes } from './noteable-scope.js';
import { mayAdminNote } from './note-viewer.js';

const listParams = params({
  activity_filter: f.optional(f.values(['all_notes', 'only_comments', 'only_activity'] as const), 'all_notes'),
  order_by: f.optional(f.values(['created_at', 'updated_at'] as const), 'created_at'),
  sort: f.optional(f.values(['asc', 'desc'] as const), 'desc'),
});

/** `body` as GitLab takes it on create: required, checked by the note's own rules (so blank is the model's 400). */
export const noteBodyParams = {
  body: f.string(),
  internal: f.optional(f.boolean()),
  confidential: f.optional(f.boolean()),
  created_at: f.optional(f.datetime()),
};

/** A body of only quick actions answers what they did (GitLab's NoteCommands), with 202. */
export const commandsOnlyAnswer = (result: Extract<CreateResult, { kind: 'commands' }>) =>
  reply(202, { commands_changes: result.changes, summary: result.summary });

export function noteRoutes(service: NoteService, scopes: NoteableScopes, present: NotePresenter): Route[] {
  /** Pages by noteable, whether internal notes show, filters, URL and page (the caller checked by the route's `before`). */
  const pages = keptPages<{ items: readonly unknown[]; total: number | null }>();
  return NOTEABLE_SEGMENTS.flatMap((kind) => {
    const path = `/projects/:id/${kind.segment}/:${kind.param}/notes`;
    const before = (ctx: Parameters<NoteableScopes>[0]) => scopes(ctx, kind);
    return [
      defineRoute({
        method: 'GET',
        path,
        response: { schema: noteSchema },
        paginated: true,
        input: listParams,
        before,
        async handler(ctx, input, scope) {
          const activity = input.activity_filter ?? 'all_notes';
          const orderBy = input.order_by ?? 'created_at';
          const sort = input.sort ?? 'desc';
          const { perPage, offset } = ctx.page;
          const withInternal = scope.viewer.canSeeInternal;
          const read = async () => {
            const notes = await service.list({
              noteableType: scope.noteableType,
              noteableId: scope.noteable.id,
              withInternal,
              activity,
              orderBy,
              sort,
              limit: perPage,
              offset,
            });
            return { items: await present.json(notes, ctx.externalUrl), total: await totalFromRows(ctx.page, notes, () => service.count(scope, activity)) };
          };
          const key = `${scope.noteableType}:${scope.noteable.id}|${withInternal}|${activity}|${orderBy}|${sort}|${perPage}|${offset}|${ctx.externalUrl}`;
          // A note another plugin adds fields to (a merge request's suggestions, which read the
          // repository) is presented afresh as an object, so its page is not kept.
          const { items, total } = await pages(key, ctx.user, read);
          return page(items, total);
        },
      }),
      defineRoute({
        method: 'GET',
        path: `${path}/:note_id`,
        response: { schema: noteSchema },
        input: params({ note_id: f.id() }),
        before,
        async handler(ctx, { note_id }, scope) {
          const [note] = await present([await service.find(scope, note_id)], ctx.externalUrl);
          return note;
        },
      }),
      defineRoute({
        method: 'POST',
        path,
        response: { schema: noteSchema, alternatives: { 202: noteCommandsSchema }, errors: [429] },
        input: params({ ...noteBodyParams, merge_request_diff_head_sha: f.optional(f.string()) }),
        before,
        async handler(ctx, input, scope) {
          const result = await service.create(scope, {
            body: input.body,
            internal: input.internal ?? input.confidential,
            createdAt: input.created_at,
            mergeRequestDiffHeadSha: input.merge_request_diff_head_sha,
          });
          if (result.kind === 'commands') return commandsOnlyAnswer(result);
          const [note] = await present([result.note], ctx.externalUrl);
          return created(result.kind === 'note' ? { ...note, commands_changes: result.changes } : note);
        },
      }),
      defineRoute({
        method: 'PUT',
        path: `${path}/:note_id`,
        response: { schema: noteSchema },
        input: params({ note_id: f.id(), body: f.string(), confidential: f.optional(f.boolean()) }),
        before,
        async handler(ctx, input, scope) {
          const note = await service.find(scope, input.note_id);
          const [updated] = await present([await service.update(scope, note, { body: input.body, internal: input.confidential })], ctx.externalUrl);
          return updated;
        },
      }),
      defineRoute({
        method: 'DELETE',
        path: `${path}/:note_id`,
        response: { status: 204, errors: [412] },
        input: params({ note_id: f.id() }),
        before,
        async handler(ctx, { note_id }, scope) {
          const note = await service.find(scope, note_id);
          if (!mayAdminNote(scope.viewer, note)) throw forbidden();
          checkUnmodifiedSince(ctx.header('if-unmodified-since'), note.updatedAt);
          await service.remove(scope, note);
          return noContent();
        },
      }),
    ];
  });
}
