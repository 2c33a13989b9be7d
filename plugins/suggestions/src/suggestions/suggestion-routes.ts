/** `PUT /suggestions/:id/apply` and `PUT /suggestions/batch_apply`. */
import { defineRoute, f, params, type Route } from '@forgekit/kernel';
import { presentSuggestion } from './suggestion-presenter.js';
import { suggestionSchema } from './suggestion-schemas.js';
import type { SuggestionService } from './suggestion-service.js';

export function suggestionRoutes(service: SuggestionService): Route[] {
  return [
    defineRoute({
      method: 'PUT',
      path: '/suggestions/batch_apply',
      auth: 'required',
      response: { schema: { type: 'array', items: suggestionSchema } },
      input: params({ ids: f.commaList(f.id()), commit_message: f.optional(f.string()) }),
      async handler(ctx, { ids, commit_message }) {
        const applied = await service.apply(ctx.user, ids, commit_message ?? null, true);
        return applied.map((suggestion) => presentSuggestion(suggestion, false));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/suggestions/:id/apply',
      auth: 'required',
      response: { schema: suggestionSchema },
      input: params({ id: f.id(), commit_message: f.optional(f.string()) }),
      async handler(ctx, { id, commit_message }) {
        const [applied] = await service.apply(ctx.user, [id], commit_message ?? null, false);
        return presentSuggestion(applied!, false);
      },
    }),
  ];
}
