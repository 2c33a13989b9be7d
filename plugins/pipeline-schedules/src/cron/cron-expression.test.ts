import { describe, expect, it } from 'vitest';
import { isValidCron, nextOccurrence } from './cron-expression.js';

const FROM = new Date('2024-03-09T12:00:00Z');

describe('cron expressions', () => {
  it.each([
    '* * * * *',
    '0 1 * * *',
    '*/15 * * * *',
    '0 0 * * 1-5',
    '0 0 * * MON#2',
    '0 0 L * *',
    '30 2 1,15 * *',
    '0 0 * * SUN',
    '0 0 * * 7',
    '0 9 * JAN-MAR *',
    '0 0 1 1 * ',
    ' 0 1 * * *',
    '*/10 * * * * *',
    '@daily',
    '@HOURLY',
    '@noon',
  ])('accepts %j', (cron) => {
    expect(isValidCron(cron)).toBe(true);
  });

  it.each([
    '',
    ' ',
    'invalid-cron',
    '* * * *',
    '0 0 0 1 1 * 2025',
    '60 * * * *',
    '0 25 * * *',
    '0 0 ? * *',
    '0 0 1W * *',
    '0 0 LW * *',
    '0 0 31 2 *',
    '@reboot',
    'every day',
  ])('refuses %j', (cron) => {
    expect(isValidCron(cron)).toBe(false);
  });

  it('finds the next occurrence strictly after the given time', () => {
    expect(nextOccurrence('0 12 * * *', 'UTC', FROM)?.toISOString()).toBe('2024-03-10T12:00:00.000Z');
    expect(nextOccurrence('*/15 * * * *', 'UTC', FROM)?.toISOString()).toBe('2024-03-09T12:15:00.000Z');
    expect(nextOccurrence('@noon', 'UTC', FROM)?.toISOString()).toBe('2024-03-10T12:00:00.000Z');
  });

  it('evaluates the expression in the given zone, across a daylight saving change', () => {
    // New York moves to EDT (UTC-4) at 02:00 on 10 March 2024.
    expect(nextOccurrence('0 4 * * *', 'America/New_York', FROM)?.toISOString()).toBe('2024-03-10T08:00:00.000Z');
    expect(nextOccurrence('0 4 * * *', 'America/New_York', new Date('2024-03-10T09:00:00Z'))?.toISOString()).toBe('2024-03-11T08:00:00.000Z');
    expect(nextOccurrence('0 4 * * *', 'Asia/Tokyo', FROM)?.toISOString()).toBe('2024-03-09T19:00:00.000Z');
  });

  it('gives null for an invalid expression', () => {
    expect(nextOccurrence('nope', 'UTC', FROM)).toBeNull();
  });
});
