import { describe, expect, it } from 'vitest';
import { MAX_ITERATIONS_PER_RUN, missingIterations, periodOf, realigned } from './cadence-schedule.js';

const today = '2026-03-10';

describe('automatic cadence scheduling', () => {
  it('starts at the cadence start and keeps the upcoming count', () => {
    const wanted = missingIterations({ startDate: '2026-03-09', durationInWeeks: 1, iterationsInAdvance: 2 }, [], today);
    expect(wanted.map((iteration) => [iteration.startDate, iteration.dueDate])).toEqual([
      ['2026-03-09', '2026-03-15'],
      ['2026-03-16', '2026-03-22'],
      ['2026-03-23', '2026-03-29'],
    ]);
    expect(wanted.every((iteration) => iteration.title === null && iteration.description === null)).toBe(true);
  });

  it('continues after the last iteration and adds nothing when enough are upcoming', () => {
    const existing = [
      { startDate: '2026-03-09', dueDate: '2026-03-22' },
      { startDate: '2026-03-23', dueDate: '2026-04-05' },
    ];
    const spec = { startDate: '2026-03-09', durationInWeeks: 2, iterationsInAdvance: 2 };
    expect(missingIterations(spec, existing, today).map((iteration) => iteration.startDate)).toEqual(['2026-04-06']);
    expect(missingIterations(spec, [...existing, { startDate: '2026-04-06', dueDate: '2026-04-19' }], today)).toEqual([]);
  });

  it('bounds one run', () => {
    expect(missingIterations({ startDate: '1990-01-01', durationInWeeks: 1, iterationsInAdvance: 1 }, [], today)).toHaveLength(MAX_ITERATIONS_PER_RUN);
  });

  it('moves only the upcoming iterations, back to back from the new start', () => {
    const existing = [
      { id: 1, startDate: '2026-03-09', dueDate: '2026-03-15' },
      { id: 2, startDate: '2026-03-16', dueDate: '2026-03-22' },
      { id: 3, startDate: '2026-03-23', dueDate: '2026-03-29' },
    ];
    expect(realigned({ startDate: '2026-03-17', durationInWeeks: 2 }, existing, today)).toEqual([
      { id: 2, startDate: '2026-03-17', dueDate: '2026-03-30' },
      { id: 3, startDate: '2026-03-31', dueDate: '2026-04-13' },
    ]);
  });

  it("writes periods as Rails' medium dates", () => {
    expect(periodOf({ startDate: '2026-01-05', dueDate: '2026-01-18' })).toBe('Jan  5, 2026 - Jan 18, 2026');
  });
});
