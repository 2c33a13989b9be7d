import { describe, expect, it } from 'vitest';
import { nextRunAt } from './next-run.js';

const NOW = new Date('2024-03-09T12:00:00Z');

describe('next_run_at', () => {
  it('is the next occurrence in the schedule zone, named either way', () => {
    expect(nextRunAt('0 4 * * *', 'America/New_York', NOW)?.toISOString()).toBe('2024-03-10T08:00:00.000Z');
    expect(nextRunAt('0 4 * * *', 'Eastern Time (US & Canada)', NOW)?.toISOString()).toBe('2024-03-10T08:00:00.000Z');
    expect(nextRunAt('0 4 * * *', 'UTC', NOW)?.toISOString()).toBe('2024-03-10T04:00:00.000Z');
  });

  it('moves to the scheduler tick that fires the run when the scheduler cron is known', () => {
    const worker = '3-59/10 * * * *';
    expect(nextRunAt('0 4 * * *', 'UTC', NOW, worker)?.toISOString()).toBe('2024-03-10T04:03:00.000Z');
    // The ideal time is the scheduler's next tick itself.
    expect(nextRunAt('3 12 * * *', 'UTC', NOW, worker)?.toISOString()).toBe('2024-03-09T12:03:00.000Z');
    // Otherwise the first tick after the ideal time, even when the ideal time is a tick.
    expect(nextRunAt('13 12 * * *', 'UTC', NOW, worker)?.toISOString()).toBe('2024-03-09T12:23:00.000Z');
  });

  it('is null for an unknown zone or an invalid cron', () => {
    expect(nextRunAt('0 4 * * *', 'Nowhere/Land', NOW)).toBeNull();
    expect(nextRunAt('bad', 'UTC', NOW)).toBeNull();
  });
});
