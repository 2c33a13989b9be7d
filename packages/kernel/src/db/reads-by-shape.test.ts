import { describe, expect, it } from 'vitest';
import { readsByShape } from './reads-by-shape.js';

describe('reads kept by shape', () => {
  it('prepares a shape once and starts again past its bound', () => {
    let prepared = 0;
    const readOf = readsByShape<{ n: number }>(2);
    const prepare = () => ({ n: ++prepared });
    const first = readOf('a', prepare);
    expect(readOf('a', prepare)).toBe(first);
    readOf('b', prepare);
    expect(prepared).toBe(2);
    readOf('c', prepare);
    expect(prepared).toBe(3);
    expect(readOf('a', prepare)).not.toBe(first);
    expect(prepared).toBe(4);
  });
});
