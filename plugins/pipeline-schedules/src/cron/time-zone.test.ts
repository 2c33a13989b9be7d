import { describe, expect, it } from 'vitest';
import { RAILS_TIME_ZONES } from './rails-time-zones.js';
import { ianaZoneFor } from './time-zone.js';

describe('cron_timezone names', () => {
  it('holds the whole Rails table, each name naming a zone the runtime knows', () => {
    const names = Object.keys(RAILS_TIME_ZONES);
    expect(names).toHaveLength(151);
    for (const name of names) expect(ianaZoneFor(name), name).toBe(RAILS_TIME_ZONES[name]);
  });

  it('turns Rails names into their IANA zone', () => {
    expect(ianaZoneFor('Pacific Time (US & Canada)')).toBe('America/Los_Angeles');
    expect(ianaZoneFor('Eastern Time (US & Canada)')).toBe('America/New_York');
    expect(ianaZoneFor("Nuku'alofa")).toBe('Pacific/Tongatapu');
    expect(ianaZoneFor('UTC')).toBe('Etc/UTC');
  });

  it('accepts IANA names, canonical or aliases', () => {
    for (const zone of ['America/Los_Angeles', 'Asia/Tokyo', 'Etc/UTC', 'Etc/GMT+5', 'US/Pacific', 'Asia/Calcutta', 'EST', 'America/Argentina/Buenos_Aires']) {
      expect(ianaZoneFor(zone), zone).toBe(zone);
    }
  });

  it('refuses unknown names and names in the wrong case', () => {
    for (const zone of ['', ' ', 'Mars/Olympus', 'america/new_york', 'AMERICA/NEW_YORK', 'pacific time (us & canada)', 'utc', 'GMT+5']) {
      expect(ianaZoneFor(zone), zone).toBeNull();
    }
  });
});
