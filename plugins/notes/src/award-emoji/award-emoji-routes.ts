/** `.../<issues|merge_requests|snippets>/:noteable_id[/notes/:note_id]/award_emoji[/:award_id]`. */
import { created, defineRoute, f, noContent, page, params, type Route } from '@forgekit/kernel';
import type { UserService } from '@forgekit/plugin-core/contracts';
import type { AwardEmojiRow } from '../entities/award-emoji.js';
import type { NoteService } from '../notes/note-service.js';
import { presentUsers } from '../notes/present-users.js';
import { AWARDABLE_SEGMENTS, type NoteableScopes, type ScopeRequest } from '../notes/noteable-scope.js';
import type { AwardEmojiService } from './award-emoji-service.js';
import { awardEmojiSchema } from './award-emoji-schemas.js';
import type { Awardable } from './award-emoji-store.js';

export function awardEmojiRoutes(awards: AwardEmojiService, notes: NoteService, scopes: NoteableScopes, users: UserService): Route[] {
  const present = async (rows: readonly AwardEmojiRow[], externalUrl: string) => {
    const found = await presentUsers(
      users,
      rows.map((row) => row.userId),
      externalUrl,
    );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      user: found.get(row.userId) ?? null,
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
      awardable_id: row.awardableId,
      awardable_type: row.awardableType,
      url: null,
    }));
  };

  return AWARDABLE_SEGMENTS.flatMap((kind) => {
    const base = `/projects/:id/${kind.segment}/:${kind.param}`;
    /** The noteable itself, or one of its notes the caller may read. */
    const onNoteable = async (ctx: ScopeRequest) => {
      const scope = await scopes(ctx, kind);
      return { projectId: scope.noteable.projectId, awardable: { awardableType: scope.noteableType, awardableId: scope.noteable.id } as Awardable };
    };
    const onNote = async (ctx: ScopeRequest) => {
      const scope = await scopes(ctx, kind);
      const noteId = Number(ctx.params.note_id);
      const note = await notes.find(scope, Number.isSafeInteger(noteId) ? noteId : 0);
      return { projectId: scope.noteable.projectId, awardable: { awardableType: 'Note', awardableId: note.id } as Awardable };
    };
    return [
      { path: `${base}/award_emoji`, before: onNoteable },
      { path: `${base}/notes/:note_id/award_emoji`, before: onNote },
    ].flatMap(({ path, before }) => [
      defineRoute({
        method: 'GET',
        path,
        response: { schema: awardEmojiSchema },
        paginated: true,
        before,
        async handler(ctx, _input, { awardable }) {
          const rows = await awards.list(awardable, ctx.page.perPage, ctx.page.offset);
          return page(await present(rows, ctx.externalUrl), await awards.count(awardable));
        },
      }),
      defineRoute({
        method: 'GET',
        path: `${path}/:award_id`,
        response: { schema: awardEmojiSchema },
        input: params({ award_id: f.id() }),
        before,
        async handler(ctx, { award_id }, { awardable }) {
          const [award] = await present([await awards.find(awardable, award_id)], ctx.externalUrl);
          return award;
        },
      }),
      defineRoute({
        method: 'POST',
        path,
        response: { schema: awardEmojiSchema },
        input: params({ name: f.string() }),
        before,
        async handler(ctx, { name }, { awardable, projectId }) {
          const [award] = await present([await awards.give(awardable, projectId, ctx.user.id, name)], ctx.externalUrl);
          return created(award);
        },
      }),
      defineRoute({
        method: 'DELETE',
        path: `${path}/:award_id`,
        response: { status: 204 },
        input: params({ award_id: f.id() }),
        before,
        async handler(ctx, { award_id }, { awardable }) {
          await awards.take(awardable, award_id, ctx.user);
          return noContent();
        },
      }),
    ]);
  });
}
