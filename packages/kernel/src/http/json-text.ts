/**
 * JSON already serialised (a presented entity from the cache): sent as it is, and joined
 * as it is into a list's array, so a cached part is never parsed or stringified again.
 */
export class JsonText {
  constructor(readonly text: string) {}

  /** Where a `JsonText` ends up inside a value that is stringified as a whole, it still serialises right. */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/**
 * A response body's JSON: a `JsonText` as it is, an array holding `JsonText` items as
 * their texts joined (the other items stringified), anything else through `JSON.stringify`.
 * Node 20 has no `JSON.rawJSON`, hence the join by hand.
 */
export function serializeJson(body: unknown): string {
  if (body instanceof JsonText) return body.text;
  if (Array.isArray(body) && body.length > 0 && body[0] instanceof JsonText) {
    let text = '[';
    for (let i = 0; i < body.length; i++) {
      const item = body[i];
      if (i > 0) text += ',';
      text += item instanceof JsonText ? item.text : (JSON.stringify(item) ?? 'null');
    }
    return `${text}]`;
  }
  return JSON.stringify(body);
}

/** Bodies of kept lists (see `keptList`), made by the first request that sends one. */
const keptBodies = new WeakMap<readonly unknown[], string | Buffer | undefined>();

/**
 * `items`, as a memo keeps them between requests, frozen: the body made from them for the
 * first request that sends them is kept with them and sent as it is to every later one, so a
 * large list's text is neither joined nor copied into bytes again (young garbage per request).
 */
export function keptList<T extends JsonText>(items: T[]): readonly T[] {
  keptBodies.set(Object.freeze(items), undefined);
  return items;
}

/** The body of a kept list, made once with `make` from its JSON; undefined for any other value. */
export function keptBodyOf(body: unknown, make: (json: string) => string | Buffer): string | Buffer | undefined {
  if (!Array.isArray(body) || !keptBodies.has(body)) return undefined;
  let made = keptBodies.get(body);
  if (made === undefined) keptBodies.set(body, (made = make(serializeJson(body))));
  return made;
}
