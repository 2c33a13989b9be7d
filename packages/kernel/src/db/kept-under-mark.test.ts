import { describe, expect, it } from 'vitest';
import { keptUnderMark } from './kept-under-mark.js';

describe('reads kept under a change mark', () => {
  it('reads once per key and mark, afresh without a mark, and starts again past its bound', async () => {
    let reads = 0;
    const read = async () => ({ n: ++reads });
    const kept = keptUnderMark<{ n: number }>(2, (value) => ({ ...value }));
    const first = await kept('a', 1, read);
    const again = await kept('a', 1, read);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
    expect(reads).toBe(1);
    expect(await kept('a', 2, read)).toEqual({ n: 2 });
    expect(await kept('a', undefined, read)).toEqual({ n: 3 });
    expect(await kept('a', 2, read)).toEqual({ n: 2 });
    await kept('b', 2, read);
    await kept('c', 2, read);
    expect(reads).toBe(5);
    expect(await kept('a', 2, read)).toEqual({ n: 6 });
  });
});
