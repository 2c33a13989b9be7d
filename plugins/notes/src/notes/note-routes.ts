/** `GET /projects/:id/<issues|merge_requests|snippets|wiki_pages>/:noteable_id/notes`. */
import { defineRoute, f, page, params, totalFor, type Route } from '@forgekit/kernel';
import type { UserService } from '@forgekit/plugin-core/contracts';
import type { NoteService } from './note-service.js';
import { presentNote } from './note-presenter.js';
import { userBasic } from '@forgekit/plugin-core/contracts';

/** Each noteable kind's route segment and the name its placeholder has on every route of that kind. */
const NOTEABLE_SEGMENTS = [
  { segment: 'issues', param: 'issue_iid' },
  { segment: 'merge_requests', param: 'merge_request_iid' },
  { segment: 'snippets', param: 'snippet_id' },
  { segment: 'wiki_pages', param: 'wiki_page_meta_id' },
] as const;

const listParams = params({
  activity_filter: f.optional(f.values(['all_notes', 'only_comments', 'only_activity'] as const), 'all_notes'),
  order_by: f.optional(f.values(['created_at', 'updated_at'] as const), 'created_at'),
  sort: f.optional(f.values(['asc', 'desc'] as const), 'desc'),
});

export function noteRoutes(service: NoteService, users: UserService): Route[] {
  return NOTEABLE_SEGMENTS.map(({ segment, param }) =>
    defineRoute({
      method: 'GET',
      path: `/projects/:id/${segment}/:${param}/notes`,
      paginated: true,
      input: listParams,
      async before(ctx) {
        const { noteableType, resolver } = service.resolverFor(segment);
        const params = ctx.params as Record<string, string>;
        return { noteableType, noteable: await resolver(ctx.user, params.id!, params[param]!) };
      },
      async handler(ctx, input, { noteableType, noteable }) {
        const scope = { noteableType, noteableId: noteable.id, activity: input.activity_filter ?? 'all_notes' };
        const { perPage, offset } = ctx.page;
        const notes = await service.list({ ...scope, orderBy: input.order_by ?? 'created_at', sort: input.sort ?? 'desc', limit: perPage, offset });
        const authorIds = [...new Set(notes.map((note) => note.authorId))];
        const authors = new Map((await Promise.all(authorIds.map((id) => users.findById(id)))).flatMap((user) => (user ? [[user.id, user] as const] : [])));
        const items = notes.map((note) => {
          const author = authors.get(note.authorId);
          return presentNote(note, author ? userBasic(author, ctx.externalUrl) : null);
        });
        return page(items, await totalFor(ctx.page, notes.length, () => service.count(scope)));
      },
    }),
  );
}
