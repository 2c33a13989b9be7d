/** Param fields of the schedule endpoints that the kernel's field set does not cover. */
import { f } from '@forgekit/kernel';
import * as v from 'valibot';
import type { InputItem } from './schedule-inputs.js';

/** An input's value: a string, number, boolean or array (GitLab's `types: [String, Array, Numeric, TrueClass, FalseClass]`). */
const inputValue = () =>
  v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = dataset.value;
      if (value === undefined || value === null) {
        addIssue({ message: 'is missing' });
        return NEVER;
      }
      const scalar = typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
      if (scalar || Array.isArray(value)) return value;
      addIssue({ message: 'is invalid' });
      return NEVER;
    }),
  ) as v.GenericSchema<unknown, unknown>;

/** `inputs` on create: every item needs `name` and `value`. */
export const newInputs = () => f.optional(f.array(f.hash({ name: f.string(), value: inputValue() }) as v.GenericSchema<unknown, InputItem>));

/** `inputs` on update: `value` is needed unless the item removes the input (`destroy` or `_destroy`). */
export const changedInputs = () =>
  f.optional(
    f.array(
      v.pipe(
        f.hash({
          name: f.string(),
          destroy: f.optional(f.boolean()),
          _destroy: f.optional(f.boolean()),
          value: f.optional(inputValue()),
        }),
        v.rawCheck(({ dataset, addIssue }) => {
          if (!dataset.typed) return;
          const item = dataset.value;
          const removes = item.destroy === true || item._destroy === true;
          if (!removes && (item.value === undefined || item.value === null)) {
            addIssue({
              message: 'is missing',
              path: [{ type: 'object', origin: 'value', input: item, key: 'value', value: item.value }],
            });
          }
        }),
      ) as v.GenericSchema<unknown, InputItem>,
    ),
  );
