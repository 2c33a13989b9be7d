import { describe, expect, it } from 'vitest';
import { dueDateFilter } from './due-date-filter.js';

describe('due_date filter words', () => {
  // A Wednesday.
  const now = new Date('2026-01-14T23:30:00Z');

  it('turns each word into GitLab’s range', () => {
    expect(dueDateFilter('0', now)).toBe('none');
    expect(dueDateFilter('any', now)).toBe('any');
    expect(dueDateFilter('today', now)).toEqual({ from: '2026-01-14', to: '2026-01-14' });
    expect(dueDateFilter('tomorrow', now)).toEqual({ from: '2026-01-15', to: '2026-01-15' });
    expect(dueDateFilter('overdue', now)).toEqual({ from: null, to: '2026-01-13' });
    expect(dueDateFilter('week', now)).toEqual({ from: '2026-01-12', to: '2026-01-18' });
    expect(dueDateFilter('month', now)).toEqual({ from: '2026-01-01', to: '2026-01-31' });
    expect(dueDateFilter('next_month_and_previous_two_weeks', now)).toEqual({ from: '2025-12-31', to: '2026-02-28' });
    expect(dueDateFilter('', now)).toBeUndefined();
  });

  it('starts weeks on Monday, also on a Sunday', () => {
    expect(dueDateFilter('week', new Date('2026-01-18T10:00:00Z'))).toEqual({ from: '2026-01-12', to: '2026-01-18' });
    expect(dueDateFilter('week', new Date('2026-01-19T10:00:00Z'))).toEqual({ from: '2026-01-19', to: '2026-01-25' });
  });

  it('reaches the end of next month across a year', () => {
    expect(dueDateFilter('next_month_and_previous_two_weeks', new Date('2026-12-05T00:00:00Z'))).toEqual({ from: '2026-11-21', to: '2027-01-31' });
  });
});
