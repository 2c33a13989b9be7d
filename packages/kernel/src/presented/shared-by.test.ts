import { describe, expect, it } from 'vitest';
import { sharedBy } from './shared-by.js';

describe('values shared across a page', () => {
  it('presents each argument once and answers the same object again', () => {
    const calls: number[] = [];
    const present = sharedBy((id: number) => {
      calls.push(id);
      return { id };
    });
    const one = present(1);
    expect(present(1)).toBe(one);
    expect(present(2)).toEqual({ id: 2 });
    expect(calls).toEqual([1, 2]);
  });
});
