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
  /** The iteration's page, `<host>/groups/<group path>/-/iterations/<id>`. */
  webUrl: string;
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

/** An iteration cadence of a group (the REST extension and the CLI manage them). */
export interface IterationCadence {
  id: number;
  groupId: number;
  title: string;
  description: string | null;
  automatic: boolean;
  active: boolean;
  rollOver: boolean;
  /** `YYYY-MM-DD` */
  startDate: string | null;
  durationInWeeks: number | null;
  iterationsInAdvance: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a cadence create or update sets; undefined leaves a field as it is. */
export interface CadenceInput {
  title?: string;
  description?: string | null;
  automatic?: boolean;
  active?: boolean;
  roll_over?: boolean;
  start_date?: string | null;
  duration_in_weeks?: number | null;
  iterations_in_advance?: number | null;
}

export interface IterationCadencesService {
  list(groupId: number): Promise<IterationCadence[]>;
  /** The group's cadence, or `404 Iteration cadence Not Found`. */
  find(groupId: number, cadenceId: number): Promise<IterationCadence>;
  create(groupId: number, input: CadenceInput & { title: string }): Promise<IterationCadence>;
  update(cadence: IterationCadence, input: CadenceInput): Promise<IterationCadence>;
  remove(cadence: IterationCadence): Promise<void>;
  /** Schedules the upcoming iterations of an automatic cadence now (idempotent); the count created. */
  schedule(cadenceId: number): Promise<number>;
  /** GitLab's IterationCadence fields, in snake_case. */
  entity(cadence: IterationCadence): Record<string, unknown>;
}

export const iterationCadencesServiceRef = createServiceRef<IterationCadencesService>('iterations.cadences');

interface IterationEvent {
  iterationId: number;
  groupId: number;
}

/** An iteration that closed, and where its open issues go when its cadence rolls them over. */
export interface IterationClosed extends IterationEvent {
  cadenceId: number;
  /** The cadence is automatic and rolls open issues over (`roll_over`). */
  rollOver: boolean;
  /** The cadence's next iteration that is not closed, or null when it has none. */
  nextIterationId: number | null;
}

export const iterationEvents = {
  created: defineEvent<IterationEvent>('iteration.created'),
  updated: defineEvent<IterationEvent & { changes: Readonly<Record<string, { previous: unknown; current: unknown }>> }>('iteration.updated'),
  deleted: defineEvent<IterationEvent>('iteration.deleted'),
  /** The background job saw the iteration's due date pass. */
  closed: defineEvent<IterationClosed>('iteration.closed'),
};
export { iterationSchema } from './iterations/iteration-schemas.js';
