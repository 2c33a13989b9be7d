/**
 * Prepared reads kept by the shape of their statement (who asks, which filters are set):
 * `prepare` runs once per key. Past `max` shapes the set starts again, so a caller cycling
 * through filter combinations cannot grow it without bound.
 */
export function readsByShape<R>(max = 100): (key: string, prepare: () => R) => R {
  const reads = new Map<string, R>();
  return (key, prepare) => {
    let read = reads.get(key);
    if (read === undefined) {
      read = prepare();
      if (reads.size >= max) reads.clear();
      reads.set(key, read);
    }
    return read;
  };
}
