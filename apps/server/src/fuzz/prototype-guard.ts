/** Notices any change to the built-in prototypes that request input could reach. */
const GUARDED: [string, object][] = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
  ['String.prototype', String.prototype],
];

const describeKeys = (target: object) => new Map(Reflect.ownKeys(target).map((key) => [key, Object.getOwnPropertyDescriptor(target, key)]));
const before = GUARDED.map(([name, target]) => [name, target, describeKeys(target)] as const);

const sameDescriptor = (a?: PropertyDescriptor, b?: PropertyDescriptor) =>
  !!a && !!b && Object.is(a.value, b.value) && a.get === b.get && a.set === b.set && a.writable === b.writable && a.enumerable === b.enumerable;

/** `Object.prototype.polluted (added)` and the like; empty while nothing changed. */
export function prototypeChanges(): string[] {
  const changes: string[] = [];
  for (const [name, target, original] of before) {
    const now = describeKeys(target);
    for (const [key, descriptor] of now) {
      if (!original.has(key)) changes.push(`${name}.${String(key)} (added)`);
      else if (!sameDescriptor(original.get(key), descriptor)) changes.push(`${name}.${String(key)} (changed)`);
    }
    for (const key of original.keys()) if (!now.has(key)) changes.push(`${name}.${String(key)} (removed)`);
  }
  return changes;
}
