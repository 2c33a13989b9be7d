/** Milestone events in the database, read and written by property. */
import type { Database, Transaction } from '@forgekit/kernel';
import { recordId } from '@forgekit/kernel/orm';
import type { MilestoneEventResourceType } from '../contracts.js';
import { ResourceMilestoneEventEntity, type ResourceMilestoneEventRow } from '../entities/resource-milestone-event.js';

export type StoredEvent = ResourceMilestoneEventRow & { userId: number | null };

export interface Resource {
  type: MilestoneEventResourceType;
  id: number;
}

export function createEventStore(database: Database) {
  const ofResource = (resource: Resource) => database.from(ResourceMilestoneEventEntity).where({ resourceType: resource.type, resourceId: resource.id });
  // Rows decode a null column as null, never undefined.
  const rows = (query: ReturnType<typeof ofResource>) => database.rows(query) as Promise<StoredEvent[]>;

  return {
    /** One statement: the events land together, in the caller's transaction when it names one. */
    insert: (events: Omit<StoredEvent, 'id'>[], tx?: Transaction) => database.insertMany(ResourceMilestoneEventEntity, events, { tx }),

    /** The milestones a resource's events name. */
    async milestoneIds(resource: Resource): Promise<number[]> {
      const found = await database.values(
        database
          .table(ResourceMilestoneEventEntity)
          .distinct()
          .select({ milestoneId: 'milestoneId' })
          .where({ resourceType: resource.type, resourceId: resource.id }),
        { milestoneId: 'number' },
      );
      return found.map((row) => row.milestoneId);
    },

    /** Oldest first, only events of these milestones. */
    list(resource: Resource, milestoneIds: readonly number[], limit: number, offset: number): Promise<StoredEvent[]> {
      if (milestoneIds.length === 0) return Promise.resolve([]);
      return rows(ofResource(resource).whereIn('milestoneId', milestoneIds).orderBy('id').limit(limit).offset(offset));
    },

    count(resource: Resource, milestoneIds: readonly number[]): Promise<number> {
      if (milestoneIds.length === 0) return Promise.resolve(0);
      return database.count(ofResource(resource).whereIn('milestoneId', milestoneIds));
    },

    async find(resource: Resource, id: string): Promise<StoredEvent | undefined> {
      if (!/^\d+$/.test(id) || recordId(id) === null) return undefined;
      return (await rows(ofResource(resource).where('id', Number(id)).limit(1)))[0];
    },

    removeAllFor: (resource: Resource) => database.delete(ResourceMilestoneEventEntity, { resourceType: resource.type, resourceId: resource.id }),
    removeOfMilestone: (milestoneId: number) => database.delete(ResourceMilestoneEventEntity, { milestoneId }),
    removeOfProject: (projectId: number) => database.delete(ResourceMilestoneEventEntity, { projectId }),
  };
}

export type EventStore = ReturnType<typeof createEventStore>;
