/** Calendar arithmetic on `YYYY-MM-DD` dates (UTC), and GitLab's iteration states for a day. */
import type { IterationState } from '../contracts.js';

export const todayDate = (now = new Date()) => now.toISOString().slice(0, 10);

export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** The same day `years` later (29 February becomes 1 March in a common year, as in Ruby). */
export function addYears(date: string, years: number): string {
  const at = new Date(`${date}T00:00:00Z`);
  at.setUTCFullYear(at.getUTCFullYear() + years);
  return at.toISOString().slice(0, 10);
}

export const STATE = { upcoming: 1, current: 2, closed: 3 } as const satisfies Record<string, IterationState>;

export function stateFor(dates: { startDate: string; dueDate: string }, today = todayDate()): IterationState {
  if (dates.dueDate < today) return STATE.closed;
  if (dates.startDate > today) return STATE.upcoming;
  return STATE.current;
}
