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
