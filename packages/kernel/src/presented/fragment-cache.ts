/**
 * Presented entities cached by version, as GitLab's `present_cached` does: a presenter
 * names every row its output reads, with a version that changes on every write of that
 * row, and the serialised JSON of the output is kept under that key in a bounded LRU of
 * this process. A list then joins the kept texts (see `JsonText`) instead of presenting and
 * stringifying every entity again.
 *
 * Fields that depend on the caller (permissions, `subscribed`, `can_*`) or on state outside
 * the named rows are "live": they stay out of the kept text, which is cut where they go,
 * and each request fills them in their places, so the field order is the uncached one.
 */
import { LRUCache } from 'lru-cache';
import { JsonText } from '../http/json-text.js';

export interface FragmentCacheOptions {
  /** Upper bound of the kept texts' size, in bytes (two per character, plus the key); 0 keeps nothing. */
  maxBytes: number;
  /**
   * Upper bound of the number of kept fragments (10,000 by default: about 30 MB of project
   * answers). The LRU allocates its index for this many entries up front, so it stays modest.
   */
  maxEntries?: number;
}

/**
 * Texts of values, by the value: a `Map` for one answer, or a `WeakMap` for values that are
 * kept and shared between answers (each text then lives as long as its value).
 */
export type SerialisedTexts = Pick<WeakMap<object, string>, 'get' | 'set'>;

/** A presented entity's JSON with its live fields left open. */
export interface Fragment {
  /** The live fields' names. */
  readonly live: ReadonlySet<string>;
  /** What the presenter kept beside the text on the miss (`RenderedFragment.initial`). */
  readonly initial: Readonly<Record<string, unknown>>;
  /**
   * The entity's JSON, with `live`'s values in the places of the live fields (an undefined value
   * leaves its field out). `serialised` keeps object values' texts across the fragments of one
   * answer, so that a value shared by many (a page's author, its milestone) is stringified once;
   * a value kept there must not change while the map is in use.
   */
  json(live?: Readonly<Record<string, unknown>>, serialised?: SerialisedTexts): JsonText;
}

/** `value`'s JSON, taken from or kept in `serialised` when it is an object. */
function serialise(value: unknown, serialised: SerialisedTexts | undefined): string | undefined {
  // Numbers, booleans and null spelled out: a list's live fields are mostly these, and
  // `JSON.stringify`'s fixed cost per call showed in profiles of the merge request list.
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (serialised === undefined || typeof value !== 'object') return JSON.stringify(value);
  let text = serialised.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    serialised.set(value, text);
  }
  return text;
}

/** What a presenter gives on a miss: the whole body, and which of its fields are live. */
export interface RenderedFragment {
  body: Record<string, unknown>;
  /** Fields filled on each request; one absent from `body` goes after its fields, as a later assignment would. */
  live?: readonly string[];
  /** Values kept beside the text for the presenter (what its live fields started from on the miss). */
  initial?: Record<string, unknown>;
}

export interface FragmentCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
}

export interface FragmentCache {
  /** False when the bound is 0: presenters then present as they would without the cache. */
  readonly enabled: boolean;
  /**
   * The fragment kept under `key`, or `render`'s body serialised and kept. The key must
   * name every row the body reads with the row's version, and anything else the body
   * depends on (the external URL links are built from, the view). Without a key (a source
   * read without its version) the body is serialised and not kept.
   */
  fragment(key: string | undefined, render: () => RenderedFragment): Fragment;
  /**
   * The fragment kept under `key`, if any, counted as a hit: a list that reads its page as keys
   * first takes the fragments it finds (they stay usable once evicted) and reads whole only the rest.
   */
  kept(key: string | undefined): Fragment | undefined;
  stats(): FragmentCacheStats;
  clear(): void;
}

/** Kept texts, cut where the live fields go: `segments.length === slots.length + 1`. */
class CutFragment implements Fragment {
  /** The whole text when there are no live fields. */
  private readonly whole: JsonText | undefined;
  readonly live: ReadonlySet<string>;

  constructor(
    private readonly segments: readonly string[],
    /** `"name":` of each live field. */
    private readonly slots: readonly string[],
    private readonly names: readonly string[],
    readonly initial: Readonly<Record<string, unknown>>,
    readonly size: number,
  ) {
    this.live = new Set(names);
    this.whole = slots.length === 0 ? new JsonText(`{${segments[0]}}`) : undefined;
  }

  json(live?: Readonly<Record<string, unknown>>, serialised?: SerialisedTexts): JsonText {
    if (this.whole) return this.whole;
    const { segments, slots, names } = this;
    let text = '{';
    let empty = true;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      if (segment !== '') {
        text += empty ? segment : `,${segment}`;
        empty = false;
      }
      if (i < slots.length) {
        const value = live?.[names[i]!];
        const valueText = value === undefined ? undefined : serialise(value, serialised);
        if (valueText !== undefined) {
          text += empty ? slots[i] + valueText : `,${slots[i]}${valueText}`;
          empty = false;
        }
      }
    }
    return new JsonText(`${text}}`);
  }
}

/** An object's members as JSON, without the braces ('' for none). */
const membersOf = (object: Record<string, unknown>) => JSON.stringify(object).slice(1, -1);

/** Serialises `body` once, cut at its live fields. */
export function cutFragment(rendered: RenderedFragment, keyLength = 0): CutFragment {
  const { body } = rendered;
  const live = new Set(rendered.live ?? []);
  const segments: string[] = [];
  const names: string[] = [];
  let current: Record<string, unknown> = {};
  const cut = (name: string) => {
    segments.push(membersOf(current));
    names.push(name);
    current = {};
  };
  for (const name of Object.keys(body)) {
    if (live.has(name)) cut(name);
    else current[name] = body[name];
  }
  for (const name of live) if (!(name in body)) cut(name);
  segments.push(membersOf(current));
  let chars = keyLength;
  for (const segment of segments) chars += segment.length;
  return new CutFragment(
    segments,
    names.map((name) => `${JSON.stringify(name)}:`),
    names,
    rendered.initial ?? {},
    chars * 2 + 64,
  );
}

export function createFragmentCache(options: FragmentCacheOptions): FragmentCache {
  let hits = 0;
  let misses = 0;
  const maxBytes = Math.max(0, Math.floor(options.maxBytes));
  const lru =
    maxBytes > 0
      ? new LRUCache<string, CutFragment>({
          max: options.maxEntries ?? 10_000,
          maxSize: maxBytes,
          sizeCalculation: (fragment) => Math.max(1, fragment.size),
        })
      : undefined;
  return {
    enabled: lru !== undefined,
    fragment(key, render) {
      if (key === undefined) return cutFragment(render());
      const kept = lru?.get(key);
      if (kept) {
        hits++;
        return kept;
      }
      misses++;
      const fragment = cutFragment(render(), key.length);
      // A fragment larger than the whole bound is used once and not kept.
      if (lru && fragment.size <= maxBytes) lru.set(key, fragment);
      return fragment;
    },
    kept(key) {
      const kept = key === undefined ? undefined : lru?.get(key);
      if (kept) hits++;
      return kept;
    },
    stats: () => ({ entries: lru?.size ?? 0, bytes: lru?.calculatedSize ?? 0, hits, misses }),
    clear: () => lru?.clear(),
  };
}

/**
 * One part of a fragment's key: a source row and its version. A row read without a
 * version gives undefined, and a key with an undefined part is not cached (see `versionKey`).
 */
export const sourceKey = (entity: string, id: number | string, version: number | string | Date | null | undefined): string | undefined =>
  version === undefined || version === null ? undefined : `${entity}:${id}@${version instanceof Date ? version.getTime() : version}`;

/** A fragment key from its parts, or undefined when one of them is (a source read without its version). */
export function versionKey(...parts: (string | undefined)[]): string | undefined {
  for (const part of parts) if (part === undefined) return undefined;
  return parts.join('|');
}
