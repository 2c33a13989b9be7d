/** GitLab's `due_date` list filter words, as date ranges for a given day (UTC, as GitLab's `Date.today` on a UTC server). */

export const DUE_DATE_FILTERS = ['0', 'any', 'today', 'tomorrow', 'overdue', 'week', 'month', 'next_month_and_previous_two_weeks', ''] as const;
export type DueDateWord = (typeof DUE_DATE_FILTERS)[number];

/** No due date, any due date, or due within an inclusive range (`YYYY-MM-DD`; an open end is null). */
export type DueDateFilter = 'none' | 'any' | { from: string | null; to: string | null };

const day = (at: Date) => at.toISOString().slice(0, 10);
const plusDays = (at: Date, days: number) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + days));
const monthEnd = (at: Date, monthsAhead: number) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + monthsAhead + 1, 0));

/** The filter a word asks for on `now`'s day; undefined for the blank word (no filter). */
export function dueDateFilter(word: DueDateWord, now = new Date()): DueDateFilter | undefined {
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  switch (word) {
    case '0':
      return 'none';
    case 'any':
      return 'any';
    case 'today':
      return { from: day(today), to: day(today) };
    case 'tomorrow':
      return { from: day(plusDays(today, 1)), to: day(plusDays(today, 1)) };
    case 'overdue':
      return { from: null, to: day(plusDays(today, -1)) };
    case 'week': {
      // Weeks start on Monday, as Rails' beginning_of_week.
      const monday = plusDays(today, -((today.getUTCDay() + 6) % 7));
      return { from: day(monday), to: day(plusDays(monday, 6)) };
    }
    case 'month':
      return { from: day(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1))), to: day(monthEnd(today, 0)) };
    case 'next_month_and_previous_two_weeks':
      return { from: day(plusDays(today, -14)), to: day(monthEnd(today, 1)) };
    default:
      return undefined;
  }
}
