import { describe, expect, it } from 'vitest';
import type { Principal } from '../auth/identity.js';
import { markRequest } from '../auth/request-mark.js';
import { JsonText, keptBodyOf } from './json-text.js';
import { keptPages } from './kept-pages.js';

const callerUnder = (mark: number) => {
  const caller = { id: 1 } as Principal;
  markRequest(caller, mark);
  return caller;
};

describe('list pages kept under the change mark', () => {
  it('sends a page of texts read once per key and mark, its body made once', async () => {
    let reads = 0;
    const read = async () => ({ items: [new JsonText(`{"read":${++reads}}`)], total: 1 });
    const pages = keptPages<Awaited<ReturnType<typeof read>>>();
    const first = await pages('p', callerUnder(7), read);
    const again = await pages('p', callerUnder(7), read);
    expect(again).toEqual(first);
    expect(reads).toBe(1);
    expect(String(keptBodyOf(again.items, (json) => json))).toBe('[{"read":1}]');
    expect(keptBodyOf(again.items, () => 'made again')).toBe('[{"read":1}]');
    expect((await pages('p', callerUnder(8), read)).items).toEqual([new JsonText('{"read":2}')]);
    expect((await pages('q', callerUnder(8), read)).items).toEqual([new JsonText('{"read":3}')]);
  });

  it('reads afresh for a caller without a mark', async () => {
    let reads = 0;
    const pages = keptPages();
    const read = async () => ({ items: [new JsonText(String(++reads))] });
    await pages('p', null, read);
    await pages('p', { id: 1 } as Principal, read);
    expect(reads).toBe(2);
  });

  it("keeps no page that holds a presented object, which is each request's own", async () => {
    let reads = 0;
    const pages = keptPages<{ items: unknown[] }>();
    const read = async () => ({ items: [new JsonText('{}'), { read: ++reads }] });
    const first = await pages('p', callerUnder(3), read);
    const again = await pages('p', callerUnder(3), read);
    expect(first.items[1]).toEqual({ read: 1 });
    expect(again.items[1]).toEqual({ read: 2 });
    expect(first.items[1]).not.toBe(again.items[1]);
  });
});
