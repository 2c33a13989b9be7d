import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { LinesPerTurn } from './lines-per-turn.js';

function sink() {
  const writes: string[] = [];
  let flushedSync = 0;
  return {
    writes,
    flushedSync: () => flushedSync,
    sink: {
      write: (text: string) => void writes.push(text),
      flushSync: () => void flushedSync++,
      flush: (callback?: (error?: Error) => void) => callback?.(),
    },
  };
}

describe('LinesPerTurn', () => {
  it('hands the lines of one turn to the sink as one text, at the next turn', async () => {
    const { writes, sink: target } = sink();
    const lines = new LinesPerTurn(target);
    lines.write('a\n');
    lines.write('b\n');
    lines.write('c\n');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['a\nb\nc\n']);
    lines.write('d\n');
    await nextTurn();
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('hands over what it holds at once when flushed, synchronously or not', async () => {
    const { writes, flushedSync, sink: target } = sink();
    const lines = new LinesPerTurn(target);
    lines.write('a\n');
    lines.flushSync();
    expect(writes).toEqual(['a\n']);
    expect(flushedSync()).toBe(1);
    lines.write('b\n');
    await new Promise<void>((resolve) => lines.flush(() => resolve()));
    expect(writes).toEqual(['a\n', 'b\n']);
    await nextTurn();
    expect(writes).toEqual(['a\n', 'b\n']);
  });

  it('hands its lines over when the process exits before the next turn', () => {
    const { writes, sink: target } = sink();
    const lines = new LinesPerTurn(target);
    lines.write('last words\n');
    // The hook runs first among the process's exit listeners, ahead of pino's synchronous flush.
    const [first] = process.listeners('exit');
    first!.call(process, 0);
    expect(writes).toEqual(['last words\n']);
  });
});
