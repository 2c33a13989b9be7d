/** `/snippets`: personal snippets, and any snippet the caller may read by its id. */
import {
  checkUnmodifiedSince,
  created,
  defineRoute,
  f,
  forbidden,
  noContent,
  notFound,
  page,
  params,
  totalFor,
  type Principal,
  type Route,
} from '@forgekit/kernel';
import { Visibility } from '@forgekit/plugin-core/contracts';
import type { SnippetRow } from '../entities/snippet.js';
import type { SnippetAccess } from './snippet-access.js';
import type { SnippetAnswers } from './snippet-answers.js';
import { snippetDetailSchema, snippetFileAnswer, snippetSchema } from './snippet-schemas.js';
import { createFileEntries, createRules, filesOf, updateEntries, updateOf, updateRules, VISIBILITIES } from './snippet-params.js';
import type { SnippetService } from './snippet-service.js';
import type { SnippetScope } from './snippet-store.js';

export interface PersonalRouteDeps {
  service: SnippetService;
  access: SnippetAccess;
  answers: SnippetAnswers;
  /** Ids of the snippets whose repositories are on a storage (`repository_storage`). */
  onStorage: (storage: string) => Promise<number[]>;
}

export function personalSnippetRoutes({ service, access, answers, onStorage }: PersonalRouteDeps): Route[] {
  /** A snippet the caller may read, with its project; `404 Snippet Not Found` otherwise. */
  async function readable(user: Principal | null, id: number) {
    const snippet = await service.find(id);
    const reach = snippet ? await access.readable(user, snippet) : null;
    if (!snippet || !reach?.ok) throw notFound('Snippet');
    return { snippet, project: reach.project };
  }

  /** PUT and DELETE find only the caller's own personal snippets. */
  async function own(user: Principal, id: number): Promise<SnippetRow> {
    const snippet = await service.find(id);
    if (!snippet || snippet.projectId != null || snippet.authorId !== user.id) throw notFound('Snippet');
    return snippet;
  }

  type ListInput = { created_after?: Date | null; created_before?: Date | null; repository_storage?: string | null };
  const list = (path: string, scopeOf: (user: Principal, input: ListInput) => SnippetScope | Promise<SnippetScope>) =>
    defineRoute({
      method: 'GET',
      path,
      paginated: true,
      response: { schema: snippetSchema },
      input: params({ created_after: f.optional(f.datetime()), created_before: f.optional(f.datetime()), repository_storage: f.optional(f.string()) }),
      async handler(ctx, input) {
        const scope = await scopeOf(ctx.user, input);
        const rows = await service.list(scope, ctx.page.perPage, ctx.page.offset);
        return page(await answers.many(ctx, rows), await totalFor(ctx.page, rows.length, () => service.count(scope)));
      },
    });

  return [
    list('/snippets', (user, input) => ({ kind: 'authored', authorId: user.id, createdAfter: input.created_after, createdBefore: input.created_before })),
    list('/snippets/public', (_user, input) => ({ kind: 'public', createdAfter: input.created_after, createdBefore: input.created_before })),
    // Every snippet the caller may read, personal and project (all of them for administrators,
    // who alone may filter by `repository_storage`).
    list('/snippets/all', async (user, input) => ({
      kind: 'available',
      reader: await access.reader(user, user.isAdmin ? [] : await service.projectIds()),
      createdAfter: input.created_after,
      createdBefore: input.created_before,
      onlyIds: user.isAdmin && input.repository_storage ? await onStorage(input.repository_storage) : null,
    })),
    defineRoute({
      method: 'GET',
      path: '/snippets/:id',
      response: { schema: snippetDetailSchema },
      auth: 'optional',
      input: params({ id: f.id() }),
      async handler(ctx, input) {
        const { snippet, project } = await readable(ctx.user, input.id);
        return answers.one(ctx, snippet, project);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/snippets/:id/raw',
      response: snippetFileAnswer,
      auth: 'optional',
      input: params({ id: f.id() }),
      async handler(ctx, input) {
        return answers.raw((await readable(ctx.user, input.id)).snippet);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/snippets/:id/files/:ref/:file_path/raw',
      response: snippetFileAnswer,
      auth: 'optional',
      input: params({ id: f.id(), ref: f.nonBlankString(), file_path: f.nonBlankString() }),
      async handler(ctx, input) {
        return answers.file((await readable(ctx.user, input.id)).snippet, input.ref, input.file_path);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/snippets',
      response: { schema: snippetDetailSchema },
      input: params(
        {
          title: f.nonBlankString(),
          description: f.optional(f.string()),
          visibility: f.optional(f.values(VISIBILITIES), 'internal'),
          ...createFileEntries,
        },
        ...createRules,
      ),
      before(ctx) {
        if (ctx.user.external) throw forbidden();
      },
      async handler(ctx, input) {
        const snippet = await service.create(await answers.author(ctx.user), {
          title: input.title,
          description: input.description ?? null,
          visibilityLevel: Visibility[input.visibility ?? 'internal'],
          projectId: null,
          files: filesOf(input),
        });
        return created(await answers.one(ctx, snippet, null));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/snippets/:id',
      response: { schema: snippetDetailSchema, errors: [422] },
      input: params({ id: f.id(), ...updateEntries }, ...updateRules),
      async handler(ctx, input) {
        const snippet = await own(ctx.user, input.id);
        const updated = await service.update(snippet, await answers.author(ctx.user), updateOf(input));
        return answers.one(ctx, updated, null);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/snippets/:id',
      response: { status: 204, errors: [412] },
      input: params({ id: f.id() }),
      async handler(ctx, input) {
        const snippet = await own(ctx.user, input.id);
        checkUnmodifiedSince(ctx.header('If-Unmodified-Since'), snippet.updatedAt);
        await service.remove(snippet.id);
        return noContent();
      },
    }),
  ];
}
