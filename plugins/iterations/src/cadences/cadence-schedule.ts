/** Which iterations an automatic cadence still needs, from what it has and today's date. */
import { addDays } from '../iterations/iteration-dates.js';
import type { NewIteration } from '../iterations/iteration-store.js';

/** A bound on one run, so a start date far in the past cannot create an unbounded number of iterations. */
export const MAX_ITERATIONS_PER_RUN = 520;

export interface ScheduleSpec {
  startDate: string;
  durationInWeeks: number;
  iterationsInAdvance: number;
}

/**
 * Consecutive iterations of `durationInWeeks` from the cadence's start (or after its last
 * iteration), through today and until `iterationsInAdvance` start after today.
 */
export function missingIterations(spec: ScheduleSpec, existing: readonly { startDate: string; dueDate: string }[], today: string): NewIteration[] {
  const days = spec.durationInWeeks * 7;
  const last = existing.at(-1);
  let start = last && last.dueDate >= spec.startDate ? addDays(last.dueDate, 1) : spec.startDate;
  let upcoming = existing.filter((iteration) => iteration.startDate > today).length;
  const wanted: NewIteration[] = [];
  while (wanted.length < MAX_ITERATIONS_PER_RUN) {
    if (start > today && upcoming >= spec.iterationsInAdvance) break;
    wanted.push({ title: null, description: null, startDate: start, dueDate: addDays(start, days - 1) });
    if (start > today) upcoming += 1;
    start = addDays(start, days);
  }
  return wanted;
}
