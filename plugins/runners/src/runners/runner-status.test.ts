import { describe, expect, it } from 'vitest';
import { fullMessages, normalizeTags, runnerErrors, toSentence } from './runner-attributes.js';
import { isOnline, isStale, restStatus } from './runner-status.js';

const NOW = Date.parse('2026-01-15T12:00:00.000Z');
const hoursAgo = (hours: number) => new Date(NOW - hours * 3_600_000);
const runner = (createdHoursAgo: number, contactedHoursAgo: number | null, active = true) => ({
  createdAt: hoursAgo(createdHoursAgo),
  contactedAt: contactedHoursAgo === null ? null : hoursAgo(contactedHoursAgo),
  active,
});

describe('runner status', () => {
  it('is online within two hours of the last contact', () => {
    expect(isOnline(runner(1, 1.9), NOW)).toBe(true);
    expect(isOnline(runner(3, 2.1), NOW)).toBe(false);
    expect(isOnline(runner(1, null), NOW)).toBe(false);
  });

  it('is stale when created and last contacted (or never) seven days ago or more', () => {
    expect(isStale(runner(24 * 7 + 1, null), NOW)).toBe(true);
    expect(isStale(runner(24 * 30, 24 * 7 + 1), NOW)).toBe(true);
    expect(isStale(runner(24 * 30, 24 * 6), NOW)).toBe(false);
    expect(isStale(runner(24 * 6, null), NOW)).toBe(false);
  });

  it('reports stale, never_contacted, paused, online and offline in that priority', () => {
    expect(restStatus(runner(24 * 8, null, false), NOW)).toBe('stale');
    expect(restStatus(runner(1, null, false), NOW)).toBe('never_contacted');
    expect(restStatus(runner(1, 1, false), NOW)).toBe('paused');
    expect(restStatus(runner(1, 1), NOW)).toBe('online');
    expect(restStatus(runner(24, 5), NOW)).toBe('offline');
  });
});

describe('runner attributes', () => {
  it('validates tags, lengths and the timeout like the runner model', () => {
    expect(runnerErrors(null, { run_untagged: false })).toEqual({ tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'] });
    expect(runnerErrors({ runUntagged: false, tags: ['a'], maximumTimeout: null, maintenanceNote: null }, { tag_list: [] })).toEqual({
      tags_list: ['can not be empty when runner is not allowed to pick untagged jobs'],
    });
    expect(runnerErrors(null, { name: 'n'.repeat(257), maximum_timeout: 599 })).toEqual({
      name: ['is too long (maximum is 256 characters)'],
      maximum_timeout: ['needs to be at least 10 minutes'],
    });
    expect(runnerErrors(null, { maximum_timeout: 600, tag_list: Array.from({ length: 50 }, (_, i) => `t${i}`) })).toEqual({});
  });

  it('writes full messages and sentences as Rails does', () => {
    expect(fullMessages({ 'runner_projects.base': ['Maximum exceeded'], tags_list: ['x'], base: ['plain'] })).toEqual([
      'Runner projects base Maximum exceeded',
      'Tags list x',
      'plain',
    ]);
    expect(toSentence(['a'])).toBe('a');
    expect(toSentence(['a', 'b'])).toBe('a and b');
    expect(toSentence(['a', 'b', 'c'])).toBe('a, b, and c');
  });

  it('trims, drops blank and repeated tags', () => {
    expect(normalizeTags([' docker', 'linux ', '', 'docker'])).toEqual(['docker', 'linux']);
  });
});
