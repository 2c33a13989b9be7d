/** Milestone events in the database: reads through the entity, writes through the EntityManager. */
import type { Database } from '@forgekit/kernel';
import { recordId, type EntityManager } from '@forgekit/kernel/orm';
import type { MilestoneEventResourceType } from '../contracts.js';
import { ResourceMilestoneEventEntity, type ResourceMilestoneEventRow } from '../entities/resource-milestone-event.js';

export type StoredEvent = ResourceMilestoneEventRow & { userId: number | null };

export interface Resource {
  type: MilestoneEventResourceType;
  id: number;
}

export function createEventStore(database: Database) {
  const ofResource = (resource: Resource) =>
    database.legacy.from(ResourceMilestoneEventEntity).where({ resource_type: resource.type, resource_id: resource.id });
  const rows = async (query: ReturnType<typeof ofResource>) => (await database.legacy.rows(ResourceMilestoneEventEntity, query)) as StoredEvent[];

  return {
    async insert(events: Omit<StoredEvent, 'id'>[], em?: EntityManager) {
      if (em) {
        for (const event of events) await em.insert(ResourceMilestoneEventEntity, event as StoredEvent);
        return;
      }
      await database.legacy.transaction(async (tx) => {
        for (const event of events) await tx.insert(ResourceMilestoneEventEntity, event as StoredEvent);
      });
    },

    /** The milestones a resource's events name. */
    async milestoneIds(resource: Resource): Promise<number[]> {
      const found = await database.legacy.values(
        database.legacy
          .table(ResourceMilestoneEventEntity)
          .distinct({ milestoneId: 'milestone_id' })
          .where({ resource_type: resource.type, resource_id: resource.id }),
        { milestoneId: 'number' },
      );
      return found.map((row) => row.milestoneId);
    },

    /** Oldest first, only events of these milestones. */
    list(resource: Resource, milestoneIds: readonly number[], limit: number, offset: number): Promise<StoredEvent[]> {
      if (milestoneIds.length === 0) return Promise.resolve([]);
      return rows(
        ofResource(resource)
          .whereIn('milestone_id', [...milestoneIds])
          .orderBy('id')
          .limit(limit)
          .offset(offset),
      );
    },

    count(resource: Resource, milestoneIds: readonly number[]): Promise<number> {
      if (milestoneIds.length === 0) return Promise.resolve(0);
      return database.legacy.count(ofResource(resource).whereIn('milestone_id', [...milestoneIds]));
    },

    async find(resource: Resource, id: string): Promise<StoredEvent | undefined> {
      if (!/^\d+$/.test(id) || recordId(id) === null) return undefined;
      return (await rows(ofResource(resource).where('id', Number(id))))[0];
    },

    removeAllFor: (resource: Resource) =>
      database.legacy.em().nativeDelete(ResourceMilestoneEventEntity, { resourceType: resource.type, resourceId: resource.id }),
    removeOfMilestone: (milestoneId: number) => database.legacy.em().nativeDelete(ResourceMilestoneEventEntity, { milestoneId }),
    removeOfProject: (projectId: number) => database.legacy.em().nativeDelete(ResourceMilestoneEventEntity, { projectId }),
  };
}

export type EventStore = ReturnType<typeof createEventStore>;
