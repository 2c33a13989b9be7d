import { requestMark } from '../auth/request-mark.js';
import type { Principal } from '../auth/identity.js';
import { keptUnderMark } from '../db/kept-under-mark.js';
import { JsonText, keptList } from './json-text.js';

/** List pages kept for reading requests by default; past this many, the memo starts again. */
export const PAGES_KEPT = 256;

/** A list page as a route reads it: its items, and whatever else it carries (its total, a next cursor). */
export interface ListPageRead {
  items: readonly unknown[];
}

/**
 * List pages kept between reading requests under the caller's change mark (see
 * `keptUnderMark`): a request under the same mark is sent the kept page, whose body is made
 * once (see `keptList`), since nothing was committed since, by any process. The key must name
 * everything the page shows, the caller's view included; the caller's right to see it is
 * checked on every request before this.
 *
 * Only a page of texts alone is kept: a presented object is each request's own, so a page
 * holding one is read afresh each time.
 */
export function keptPages<P extends ListPageRead>(max = PAGES_KEPT) {
  const kept = keptUnderMark<P | null>(max);
  return async (key: string, caller: Principal | null | undefined, read: () => Promise<P>): Promise<P> => {
    let fresh: P | undefined;
    const page = await kept(key, requestMark(caller), async () => {
      fresh = await read();
      return fresh.items.every((item) => item instanceof JsonText) ? { ...fresh, items: keptList(fresh.items as JsonText[]) } : null;
    });
    return page ?? fresh ?? (await read());
  };
}
