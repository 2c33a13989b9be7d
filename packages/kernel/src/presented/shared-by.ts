/**
 * `present`, answering the same object for the same argument: a page's presenters share what
 * many of its items hold (one author, one milestone), so the fragment cache serialises it once.
 * The memo lives as long as the page, so it needs no bound.
 */
export function sharedBy<K, V>(present: (key: K) => V): (key: K) => V {
  const presented = new Map<K, V>();
  return (key) => {
    if (presented.has(key)) return presented.get(key) as V;
    const value = present(key);
    presented.set(key, value);
    return value;
  };
}
