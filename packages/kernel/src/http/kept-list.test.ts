import { describe, expect, it } from 'vitest';
import { JsonText, keptBodyOf, keptList } from './json-text.js';

describe('a kept list', () => {
  const texts = () => [new JsonText('{"id":1}'), new JsonText('{"id":2}')];

  it('has its body made once, from its JSON, and sent as made to every later request', () => {
    const items = keptList(texts());
    const made: string[] = [];
    const make = (json: string) => {
      made.push(json);
      return Buffer.from(json);
    };
    const first = keptBodyOf(items, make);
    const second = keptBodyOf(items, make);
    expect(made).toEqual(['[{"id":1},{"id":2}]']);
    expect(second).toBe(first);
    expect(String(first)).toBe('[{"id":1},{"id":2}]');
  });

  it('cannot change once kept, so its body cannot go stale', () => {
    const items = keptList(texts()) as JsonText[];
    expect(() => items.push(new JsonText('{"id":3}'))).toThrow(TypeError);
    expect(() => {
      items[0] = new JsonText('{"id":9}');
    }).toThrow(TypeError);
    expect(keptBodyOf(items, (json) => json)).toBe('[{"id":1},{"id":2}]');
  });

  it('leaves every other body to be serialised per request', () => {
    const make = () => 'made';
    expect(keptBodyOf(texts(), make)).toBeUndefined();
    expect(keptBodyOf(Object.freeze(texts()), make)).toBeUndefined();
    expect(keptBodyOf({ id: 1 }, make)).toBeUndefined();
    expect(keptBodyOf(new JsonText('{}'), make)).toBeUndefined();
  });
});
