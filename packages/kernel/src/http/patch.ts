/**
 * The change a validated update asks for, as an entity patch. An update route's input holds
 * `undefined` for what the caller did not send and `null` for what it sent empty; each field
 * sent sets its property (renamed from the wire's snake_case), shaped by `as` where the value
 * needs it, and a field not sent changes nothing.
 */

/** Where one input field goes: a property, or a property and how the sent value becomes its value. */
export type PatchField<R, V> = keyof R | { to: keyof R; as: (value: Exclude<V, undefined>) => unknown };

export function patchFrom<R extends object, I extends object>(input: I, fields: { [K in keyof I]?: PatchField<R, I[K]> }): Partial<R> {
  const patch: Partial<Record<keyof R, unknown>> = {};
  for (const name of Object.keys(fields) as (keyof I)[]) {
    const value = input[name];
    if (value === undefined) continue;
    const field = fields[name]!;
    if (typeof field === 'object' && field !== null) patch[field.to] = field.as(value as Exclude<I[keyof I], undefined>);
    else patch[field as keyof R] = value;
  }
  return patch as Partial<R>;
}
