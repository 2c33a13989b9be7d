/** What other plugins may use of iterations: lookups for the items that carry them, the wire entity, events. */
import { createServiceRef, defineEvent } from '@forgekit/kernel';

/** GitLab's state integers: 1 upcoming, 2 current, 3 closed (from the dates, for today). */
export type IterationState = 1 | 2 | 3;

export interface Iteration {
  id: number;
  iid: number;
  sequence: number;
  groupId: number;
  cadenceId: number;
  /** Null for iterations an automatic cadence created. */
  title: string | null;
  description: string | null;
  /** `YYYY-MM-DD` */
  startDate: string;
  dueDate: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface IterationsService {
  /** The iteration if it belongs to the project's group or one of its ancestors, else null. */
  forProject(projectId: number, iterationId: number): Promise<Iteration | null>;
  byIds(ids: readonly number[]): Promise<Iteration[]>;
  stateOf(iteration: Iteration): IterationState;
  /** GitLab's Iteration entity. */
  entity(iteration: Iteration): Record<string, unknown>;
}

export const iterationsServiceRef = createServiceRef<IterationsService>('iterations.iterations');

interface IterationEvent {
  iterationId: number;
  groupId: number;
}

export const iterationEvents = {
  created: defineEvent<IterationEvent>('iteration.created'),
  updated: defineEvent<IterationEvent & { changes: Readonly<Record<string, { previous: unknown; current: unknown }>> }>('iteration.updated'),
  deleted: defineEvent<IterationEvent>('iteration.deleted'),
};
