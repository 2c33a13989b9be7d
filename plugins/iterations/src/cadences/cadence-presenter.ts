import type { IterationCadence } from '../contracts.js';

/** GitLab's GraphQL IterationCadence fields, in the REST extension's snake_case. */
export function presentCadence(cadence: IterationCadence) {
  return {
    id: cadence.id,
    group_id: cadence.groupId,
    title: cadence.title,
    description: cadence.description,
    automatic: cadence.automatic,
    active: cadence.active,
    roll_over: cadence.rollOver,
    start_date: cadence.startDate,
    duration_in_weeks: cadence.durationInWeeks,
    iterations_in_advance: cadence.iterationsInAdvance,
    created_at: cadence.createdAt,
    updated_at: cadence.updatedAt,
  };
}
