/**
 * The recorder of milestone changes, the registry of the resources events are served
 * under, and GitLab's reading rules: oldest first, events of unreadable milestones left out.
 */
import { notFound, recordNotFound, type Principal } from '@forgekit/kernel';
import type { Milestone, MilestonesService } from '@forgekit/plugin-milestones/contracts';
import type { MilestoneEventResourceResolver, MilestoneEventResourceType, MilestoneEventsService } from '../contracts.js';
import type { EventStore, Resource, StoredEvent } from './event-store.js';

/** Finds the project a route names for the caller (`404 Project Not Found` when unseen). */
export type ProjectCheck = (user: Principal, projectIdOrPath: string) => Promise<unknown>;

export function createEventService(store: EventStore, milestones: MilestonesService, requireProject: ProjectCheck) {
  const resolvers = new Map<MilestoneEventResourceType, MilestoneEventResourceResolver>();

  /** The readable milestones among those the resource's events name, by id. */
  async function readableMilestones(user: Principal, ids: readonly number[]): Promise<Map<number, Milestone>> {
    const readable = new Map<number, Milestone>();
    for (const milestone of await milestones.byIds(ids)) {
      if (await milestones.canRead(user, milestone)) readable.set(milestone.id, milestone);
    }
    return readable;
  }

  const recorder: MilestoneEventsService = {
    async record(change) {
      if (change.from === change.to) return;
      const base = {
        resourceType: change.resourceType,
        resourceId: change.resourceId,
        projectId: change.projectId,
        userId: change.userId,
        state: change.state,
        createdAt: new Date(),
      };
      const events: Omit<StoredEvent, 'id'>[] = [];
      if (change.from !== null) events.push({ ...base, milestoneId: change.from, action: 'remove' });
      if (change.to !== null) events.push({ ...base, milestoneId: change.to, action: 'add' });
      await store.insert(events, change.tx);
    },
    registerResource(resourceType, resolver) {
      resolvers.set(resourceType, resolver);
    },
    async removeAllFor(resourceType, resourceId) {
      await store.removeAllFor({ type: resourceType, id: resourceId });
    },
  };

  return {
    recorder,

    /** The resource a route names, by its registered resolver (404s as the resolver gives them). */
    async resource(user: Principal, type: MilestoneEventResourceType, projectIdOrPath: string, iid: string): Promise<Resource> {
      const resolver = resolvers.get(type);
      if (!resolver) {
        // No plugin serves this kind of item yet: the project still answers first, as GitLab's lookup does.
        await requireProject(user, projectIdOrPath);
        throw notFound(type);
      }
      const found = await resolver(user, projectIdOrPath, iid);
      return { type, id: found.id };
    },

    async list(user: Principal, resource: Resource, page: { perPage: number; offset: number }) {
      const readable = await readableMilestones(user, await store.milestoneIds(resource));
      const ids = [...readable.keys()];
      const events = await store.list(resource, ids, page.perPage, page.offset);
      return { events: events.map((event) => ({ event, milestone: readable.get(event.milestoneId)! })), count: () => store.count(resource, ids) };
    },

    async find(user: Principal, resource: Resource, id: string) {
      const event = await store.find(resource, id);
      if (!event) throw recordNotFound();
      const milestone = (await milestones.byIds([event.milestoneId]))[0];
      if (!milestone) throw recordNotFound();
      if (!(await milestones.canRead(user, milestone))) throw notFound('ResourceMilestoneEvent');
      return { event, milestone };
    },

    removeOfMilestone: (milestoneId: number) => store.removeOfMilestone(milestoneId),
    removeOfProject: (projectId: number) => store.removeOfProject(projectId),
  };
}

export type EventService = ReturnType<typeof createEventService>;
