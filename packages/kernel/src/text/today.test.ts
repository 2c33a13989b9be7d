import { afterEach, describe, expect, it, vi } from 'vitest';
import { today } from './today.js';

describe('today', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('follows the UTC day across midnight, and a clock set back', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-03-01T23:59:59.999Z'));
    expect(today()).toBe('2026-03-01');
    vi.setSystemTime(new Date('2026-03-02T00:00:00.000Z'));
    expect(today()).toBe('2026-03-02');
    vi.setSystemTime(new Date('2025-12-31T12:00:00.000Z'));
    expect(today()).toBe('2025-12-31');
  });
});
