/** `/projects/:id/snippets`: a project's snippets, under the project's read rules and its snippets feature. */
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
  recordNotFound,
  totalFor,
  type Principal,
  type Route,
} from '@forgekit/kernel';
import { AccessLevel, Visibility } from '@forgekit/plugin-core/contracts';
import type { SnippetRow } from '../entities/snippet.js';
import { canChangeInProject, canReadInProject, listFloor, type SnippetAccess, type SnippetProject } from './snippet-access.js';
import type { SnippetAnswers } from './snippet-answers.js';
import { snippetDetailSchema, snippetFileAnswer, snippetSchema } from './snippet-schemas.js';
import { createFileEntries, createRules, filesOf, updateEntries, updateOf, updateRules, VISIBILITIES } from './snippet-params.js';
import type { SnippetService } from './snippet-service.js';

export interface ProjectRouteDeps {
  service: SnippetService;
  access: SnippetAccess;
  answers: SnippetAnswers;
}

const BASE = '/projects/:id/snippets';
const ITEM = `${BASE}/:snippet_id`;

export function projectSnippetRoutes({ service, access, answers }: ProjectRouteDeps): Route[] {
  /** The project's snippet if the caller may read it, or undefined. */
  async function visible(user: Principal | null, reached: SnippetProject, id: number): Promise<SnippetRow | undefined> {
    const snippet = await service.find(id);
    return snippet && snippet.projectId === reached.project.id && canReadInProject(user, snippet, reached) ? snippet : undefined;
  }

  async function found(user: Principal | null, reached: SnippetProject, id: number): Promise<SnippetRow> {
    const snippet = await visible(user, reached, id);
    if (!snippet) throw notFound('Snippet');
    return snippet;
  }

  async function changeable(user: Principal, reached: SnippetProject, id: number): Promise<SnippetRow> {
    const snippet = await found(user, reached, id);
    if (!canChangeInProject(user, snippet, reached)) throw forbidden();
    return snippet;
  }

  const project = (ctx: { user: Principal | null; params: { id: string } }) => access.project(ctx.user, ctx.params.id);
  const item = params({ snippet_id: f.id() });

  return [
    defineRoute({
      method: 'GET',
      path: BASE,
      paginated: true,
      response: { schema: snippetSchema },
      before: project,
      async handler(ctx, _input, reached) {
        const scope = { kind: 'project' as const, projectId: reached.project.id, minVisibility: listFloor(ctx.user, reached.member), authorId: ctx.user.id };
        const rows = await service.list(scope, ctx.page.perPage, ctx.page.offset);
        return page(await answers.many(ctx, rows, reached.project), await totalFor(ctx.page, rows.length, () => service.count(scope)));
      },
    }),
    defineRoute({
      method: 'GET',
      path: ITEM,
      response: { schema: snippetDetailSchema },
      auth: 'optional',
      input: item,
      before: project,
      async handler(ctx, input, reached) {
        // GitLab finds this one with `find`: an unknown or hidden snippet is `404 Not found`.
        const snippet = await visible(ctx.user, reached, input.snippet_id);
        if (!snippet) throw recordNotFound();
        return answers.one(ctx, snippet, reached.project);
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${ITEM}/raw`,
      response: snippetFileAnswer,
      auth: 'optional',
      input: item,
      before: project,
      async handler(ctx, input, reached) {
        return answers.raw(await found(ctx.user, reached, input.snippet_id));
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${ITEM}/files/:ref/:file_path/raw`,
      response: snippetFileAnswer,
      auth: 'optional',
      input: params({ snippet_id: f.id(), ref: f.nonBlankString(), file_path: f.nonBlankString() }),
      before: project,
      async handler(ctx, input, reached) {
        return answers.file(await found(ctx.user, reached, input.snippet_id), input.ref, input.file_path);
      },
    }),
    defineRoute({
      method: 'POST',
      path: BASE,
      response: { schema: snippetDetailSchema },
      input: params(
        {
          title: f.nonBlankString(),
          description: f.optional(f.string()),
          visibility: f.values(VISIBILITIES),
          ...createFileEntries,
        },
        ...createRules,
      ),
      async before(ctx) {
        const reached = await project(ctx);
        if (reached.level < AccessLevel.REPORTER) throw forbidden();
        return reached;
      },
      async handler(ctx, input, reached) {
        const snippet = await service.create(await answers.author(ctx.user), {
          title: input.title,
          description: input.description ?? null,
          visibilityLevel: Visibility[input.visibility],
          projectId: reached.project.id,
          files: filesOf(input),
        });
        return created(await answers.one(ctx, snippet, reached.project));
      },
    }),
    defineRoute({
      method: 'PUT',
      path: ITEM,
      response: { schema: snippetDetailSchema, errors: [422] },
      input: params({ snippet_id: f.id(), ...updateEntries }, ...updateRules),
      before: project,
      async handler(ctx, input, reached) {
        const snippet = await changeable(ctx.user, reached, input.snippet_id);
        const updated = await service.update(snippet, await answers.author(ctx.user), updateOf(input));
        return answers.one(ctx, updated, reached.project);
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: ITEM,
      response: { status: 204, errors: [412] },
      input: item,
      before: project,
      async handler(ctx, input, reached) {
        const snippet = await changeable(ctx.user, reached, input.snippet_id);
        checkUnmodifiedSince(ctx.header('If-Unmodified-Since'), snippet.updatedAt);
        await service.remove(snippet.id);
        return noContent();
      },
    }),
  ];
}
