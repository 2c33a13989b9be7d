import { describe, expect, it } from 'vitest';
import { JsonText, serializeJson } from '../http/json-text.js';
import { createFragmentCache, cutFragment, sourceKey, versionKey } from './fragment-cache.js';

describe('fragments cut at their live fields', () => {
  const body = () => ({ id: 1, name: 'a "quoted" name', when: new Date(0), nested: { x: [1, 2] }, viewer: undefined as unknown, tail: true });

  it('joins to what JSON.stringify gives, with the live values in their places', () => {
    const cases: Record<string, unknown>[] = [{}, { viewer: { level: 40 } }, { viewer: null }, { viewer: undefined }, { viewer: 'x', late: 5 }];
    for (const live of cases) {
      const fragment = cutFragment({ body: body(), live: ['viewer', 'late'] });
      expect(fragment.json(live).text).toBe(JSON.stringify({ ...body(), ...live }));
    }
  });

  it('writes live numbers, booleans, null and strings as JSON.stringify does, with a map of texts or without', () => {
    const values = [
      0,
      -0,
      42,
      -1.5,
      1e21,
      2 ** -30,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      true,
      false,
      null,
      '',
      'a "q"\n',
      undefined,
    ];
    const fragment = cutFragment({ body: { id: 1, v: null, tail: 2 }, live: ['v'] });
    for (const v of values) {
      const expected = JSON.stringify({ id: 1, v, tail: 2 });
      expect(fragment.json({ v }).text).toBe(expected);
      expect(fragment.json({ v }, new WeakMap()).text).toBe(expected);
    }
  });

  it('cuts at the first and the last field, and with nothing kept between', () => {
    const fragment = cutFragment({ body: { a: 1, b: 2, c: 3 }, live: ['a', 'b', 'c'] });
    expect(fragment.json({}).text).toBe('{}');
    expect(fragment.json({ a: 9, c: 7 }).text).toBe('{"a":9,"c":7}');
    expect(fragment.json({ a: 1, b: 2, c: 3 }).text).toBe('{"a":1,"b":2,"c":3}');
  });

  it('stringifies an object value shared by fragments once, given the same map', () => {
    const author = { id: 7, name: 'A' };
    let reads = 0;
    const counted = {
      toJSON: () => {
        reads++;
        return author;
      },
    };
    const fragment = cutFragment({ body: { id: 1, author: null, n: 0 }, live: ['author', 'n'] });
    const serialised = new Map<object, string>();
    const texts = [1, 2, 3].map((n) => fragment.json({ author: counted, n }, serialised).text);
    expect(texts).toEqual([1, 2, 3].map((n) => JSON.stringify({ id: 1, author, n })));
    expect(reads).toBe(1);
    fragment.json({ author: counted, n: 4 });
    expect(reads).toBe(2);
  });

  it('without live fields, is the whole text', () => {
    expect(cutFragment({ body: body() }).json().text).toBe(JSON.stringify(body()));
  });
});

describe('the presented cache', () => {
  it('renders once per key, and again for a new version', () => {
    const cache = createFragmentCache({ maxBytes: 1 << 20 });
    let renders = 0;
    const render = (name: string) => () => {
      renders++;
      return { body: { name } };
    };
    expect(cache.fragment('Project:1@1', render('one')).json().text).toBe('{"name":"one"}');
    expect(cache.fragment('Project:1@1', render('ignored')).json().text).toBe('{"name":"one"}');
    expect(cache.fragment('Project:1@2', render('two')).json().text).toBe('{"name":"two"}');
    expect(renders).toBe(2);
    expect(cache.stats()).toMatchObject({ entries: 2, hits: 1, misses: 2 });
  });

  it('keeps nothing for a key it cannot build, or when its bound is 0', () => {
    const cache = createFragmentCache({ maxBytes: 1 << 20 });
    cache.fragment(versionKey('a', sourceKey('User', 1, undefined)), () => ({ body: { a: 1 } }));
    expect(cache.stats().entries).toBe(0);
    const none = createFragmentCache({ maxBytes: 0 });
    expect(none.fragment('k', () => ({ body: { a: 1 } })).json().text).toBe('{"a":1}');
    expect(none.stats().entries).toBe(0);
  });

  it('stays within its bound of bytes, least recently used out first', () => {
    const cache = createFragmentCache({ maxBytes: 20_000 });
    const text = 'x'.repeat(1000);
    for (let id = 0; id < 100; id++) cache.fragment(`Label:${id}@0`, () => ({ body: { id, text } }));
    const { bytes, entries } = cache.stats();
    expect(bytes).toBeLessThanOrEqual(20_000);
    expect(entries).toBeLessThan(100);
    expect(entries).toBeGreaterThan(0);
    let rendered = false;
    cache.fragment('Label:99@0', () => {
      rendered = true;
      return { body: {} };
    });
    expect(rendered).toBe(false);
    cache.fragment('Label:0@0', () => {
      rendered = true;
      return { body: {} };
    });
    expect(rendered).toBe(true);
  });

  it('names each source row with its version', () => {
    expect(versionKey('project-full', sourceKey('Project', 3, 7), sourceKey('Namespace', 2, new Date(5)))).toBe('project-full|Project:3@7|Namespace:2@5');
  });
});

describe('response bodies of kept JSON', () => {
  it('sends a list of kept texts joined, and anything else as JSON.stringify does', () => {
    expect(serializeJson([new JsonText('{"a":1}'), new JsonText('{"b":2}')])).toBe('[{"a":1},{"b":2}]');
    expect(serializeJson([new JsonText('{"a":1}'), { b: 2 }])).toBe('[{"a":1},{"b":2}]');
    expect(serializeJson(new JsonText('{"a":1}'))).toBe('{"a":1}');
    expect(serializeJson([])).toBe('[]');
    expect(serializeJson({ nested: [new JsonText('{"a":1}')] })).toBe('{"nested":[{"a":1}]}');
  });
});
