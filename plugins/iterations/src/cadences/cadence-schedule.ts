/** Which iterations an automatic cadence still needs, and where its upcoming ones move when its schedule changes. */
import { addDays } from '../iterations/iteration-dates.js';
import type { NewIteration } from '../iterations/iteration-store.js';

/** A bound on one run, so no schedule can create an unbounded number of iterations. */
export const MAX_ITERATIONS_PER_RUN = 520;

export interface ScheduleSpec {
  startDate: string;
  durationInWeeks: number;
  iterationsInAdvance: number;
}

type Dated = { startDate: string; dueDate: string };

/**
 * Consecutive iterations of `durationInWeeks` from the cadence's start (or after its last
 * iteration), through today and until `iterationsInAdvance` start after today.
 */
export function missingIterations(spec: ScheduleSpec, existing: readonly Dated[], today: string): NewIteration[] {
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

/** New dates for the upcoming iterations, back to back from the new start date (GitLab never deletes them). */
export function realigned<T extends Dated & { id: number }>(spec: Omit<ScheduleSpec, 'iterationsInAdvance'>, existing: readonly T[], today: string) {
  const days = spec.durationInWeeks * 7;
  return existing
    .filter((iteration) => iteration.startDate > today)
    .map((iteration, index) => {
      const startDate = addDays(spec.startDate, index * days);
      return { id: iteration.id, startDate, dueDate: addDays(startDate, days - 1) };
    });
}

/** Rails' `Date#to_fs(:medium)`, as GitLab writes an iteration's period: `Jan  5, 2026`. */
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const medium = (date: string) => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return `${MONTHS[month - 1]} ${String(day).padStart(2, ' ')}, ${year}`;
};
export const periodOf = (iteration: Dated) => `${medium(iteration.startDate)} - ${medium(iteration.dueDate)}`;
