/**
 * Storage move endpoints, the same set for projects, snippets and groups (group wikis):
 * list and show all moves, schedule moves of every container on a storage, and list,
 * show and schedule the moves of one container. Administrators only.
 */
import { accepted, created, defineRoute, f, page, params, recordNotFound, totalFor, type Route, acceptedSchema } from '@forgekit/kernel';
import type { RepositoryPlacement } from '@forgekit/plugin-repositories/contracts';
import { ARCHIVED_PROJECT_GUARD } from '@forgekit/plugin-core/contracts';
import type { ContainerAdapter } from './containers.js';
import { presentMoves } from './move-presenter.js';
import { moveSchemaFor } from './move-schemas.js';
import { BULK_JOB, type BulkMoveJob, type MoveScheduler } from './move-scheduler.js';
import type { MoveStore } from './move-store.js';

const PLURAL = { project: 'projects', snippet: 'snippets', group: 'groups' } as const;

export function moveRoutes(
  adapter: ContainerAdapter,
  deps: { store: MoveStore; scheduler: MoveScheduler; repos: RepositoryPlacement; enqueue: (name: string, data: unknown) => Promise<void> },
): Route[] {
  const { store, scheduler, repos } = deps;
  const all = `/${adapter.type}_repository_storage_moves`;
  const own = `/${PLURAL[adapter.type]}/:id/repository_storage_moves`;
  const storageNames = [...repos.storageNames];
  const moveId = { repository_storage_move_id: f.id() };
  const schema = moveSchemaFor(adapter.key);

  const list = (path: string, scoped: boolean) =>
    defineRoute({
      method: 'GET',
      path,
      auth: 'admin',
      paginated: true,
      response: { schema },
      async handler(ctx) {
        const containerId = scoped ? await adapter.find(ctx.user, ctx.params.id!) : null;
        const rows = await store.list(adapter.type, containerId, ctx.page.perPage, ctx.page.offset);
        const total = await totalFor(ctx.page, rows.length, () => store.count(adapter.type, containerId));
        return page(await presentMoves(adapter, rows, ctx.externalUrl), total);
      },
    });

  const show = (path: string, scoped: boolean) =>
    defineRoute({
      method: 'GET',
      path,
      auth: 'admin',
      input: params(moveId),
      response: { schema },
      async handler(ctx, input) {
        const containerId = scoped ? await adapter.find(ctx.user, ctx.params.id!) : null;
        const row =
          containerId === null
            ? await store.find(input.repository_storage_move_id)
            : await store.findFor(adapter.type, containerId, input.repository_storage_move_id);
        if (!row || row.containerType !== adapter.type) throw recordNotFound();
        return (await presentMoves(adapter, [row], ctx.externalUrl))[0];
      },
    });

  return [
    list(all, false),
    show(`${all}/:repository_storage_move_id`, false),
    defineRoute({
      method: 'POST',
      path: all,
      auth: 'admin',
      input: params({ source_storage_name: f.values(storageNames), destination_storage_name: f.optional(f.values(storageNames)) }),
      response: { status: 202, schema: acceptedSchema },
      async handler(ctx, input) {
        const job: BulkMoveJob = { type: adapter.type, source: input.source_storage_name, destination: input.destination_storage_name ?? null, by: ctx.user };
        await deps.enqueue(BULK_JOB, job);
        return accepted();
      },
    }),
    list(own, true),
    show(`${own}/:repository_storage_move_id`, true),
    defineRoute({
      method: 'POST',
      path: own,
      // Moving storage is the administrator's, for archived projects too.
      exemptFrom: [ARCHIVED_PROJECT_GUARD],
      auth: 'admin',
      input: params({ destination_storage_name: f.optional(f.string()) }),
      response: { schema },
      async handler(ctx, input) {
        const containerId = await adapter.find(ctx.user, ctx.params.id!);
        const move = await scheduler.schedule(adapter, containerId, input.destination_storage_name);
        return created((await presentMoves(adapter, [move], ctx.externalUrl))[0]);
      },
    }),
  ];
}
