import { describe, expect, it } from 'vitest';
import { patchFrom } from './patch.js';

interface Row {
  title: string;
  startDate: string | null;
  active: boolean;
}

describe('patchFrom', () => {
  it('sets the properties of the fields sent, null included, and leaves the others out', () => {
    const input = { title: 'New', start_date: null, paused: undefined };
    expect(patchFrom<Row, typeof input>(input, { title: 'title', start_date: 'startDate', paused: { to: 'active', as: (paused) => !paused } })).toEqual({
      title: 'New',
      startDate: null,
    });
  });

  it('shapes a sent value through `as`', () => {
    const input: { paused?: boolean | null } = { paused: true };
    expect(patchFrom<Row, typeof input>(input, { paused: { to: 'active', as: (paused) => !paused } })).toEqual({ active: false });
  });
});
