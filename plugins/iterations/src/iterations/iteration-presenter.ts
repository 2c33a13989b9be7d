import type { Iteration } from '../contracts.js';
import { stateFor } from './iteration-dates.js';

/** GitLab's Iteration entity. */
export function presentIteration(iteration: Iteration) {
  return {
    id: iteration.id,
    iid: iteration.iid,
    sequence: iteration.sequence,
    group_id: iteration.groupId,
    title: iteration.title,
    description: iteration.description,
    state: stateFor(iteration),
    created_at: iteration.createdAt,
    updated_at: iteration.updatedAt,
    start_date: iteration.startDate,
    due_date: iteration.dueDate,
    web_url: iteration.webUrl,
  };
}
