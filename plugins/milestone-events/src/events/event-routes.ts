/** `GET /projects/:id/{issues|merge_requests}/:iid/resource_milestone_events[/:event_id]`. */
import { defineRoute, page, totalFor, type Route } from '@forgekit/kernel';
import type { MilestonesService } from '@forgekit/plugin-milestones/contracts';
import type { UserService } from '@forgekit/plugin-core/contracts';
import type { MilestoneEventResourceType } from '../contracts.js';
import { userBasic } from '@forgekit/plugin-core/contracts';
import { presentEvent } from './event-presenter.js';
import { milestoneEventSchema } from './event-schemas.js';
import type { EventService } from './event-service.js';
import type { StoredEvent } from './event-store.js';

const RESOURCES: { type: MilestoneEventResourceType; segment: string }[] = [
  { type: 'Issue', segment: 'issues/:issue_iid' },
  { type: 'MergeRequest', segment: 'merge_requests/:merge_request_iid' },
];

export function eventRoutes(service: EventService, milestones: MilestonesService, users: UserService): Route[] {
  /** Each author looked up once per request. */
  async function authors(events: readonly StoredEvent[], externalUrl: string) {
    const found = new Map<number, ReturnType<typeof userBasic> | null>();
    for (const { userId } of events) {
      if (userId === null || found.has(userId)) continue;
      const user = await users.findById(userId);
      found.set(userId, user ? userBasic(user, externalUrl) : null);
    }
    return (userId: number | null) => (userId === null ? null : (found.get(userId) ?? null));
  }

  return RESOURCES.flatMap(({ type, segment }) => {
    const path = `/projects/:id/${segment}/resource_milestone_events`;
    // Paths built at run time type their params loosely: name them here.
    const paramsOf = (params: object) => params as { id: string; issue_iid?: string; merge_request_iid?: string; event_id?: string };
    const resourceOf = (ctx: { user: Parameters<EventService['resource']>[0]; params: object }) => {
      const named = paramsOf(ctx.params);
      return service.resource(ctx.user, type, named.id, (type === 'Issue' ? named.issue_iid : named.merge_request_iid)!);
    };
    return [
      defineRoute({
        method: 'GET',
        path,
        paginated: true,
        response: { schema: milestoneEventSchema },
        before: resourceOf,
        async handler(ctx, _input, resource) {
          const { events, count } = await service.list(ctx.user, resource, ctx.page);
          const author = await authors(
            events.map(({ event }) => event),
            ctx.externalUrl,
          );
          const items = events.map(({ event, milestone }) => presentEvent(ctx, event, milestone, author(event.userId), milestones));
          return page(items, await totalFor(ctx.page, items.length, count));
        },
      }),
      defineRoute({
        method: 'GET',
        path: `${path}/:event_id`,
        response: { schema: milestoneEventSchema },
        before: resourceOf,
        async handler(ctx, _input, resource) {
          const { event, milestone } = await service.find(ctx.user, resource, paramsOf(ctx.params).event_id!);
          return presentEvent(ctx, event, milestone, (await authors([event], ctx.externalUrl))(event.userId), milestones);
        },
      }),
    ];
  });
}
