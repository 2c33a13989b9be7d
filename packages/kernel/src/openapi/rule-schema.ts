import type { GroupRule } from '../http/params.js';
import type { JsonSchema } from './field-schema.js';

/** A group rule as JSON Schema: Grape counts a key as sent when it is there, null or not, as `required` does. */
export function ruleSchema(rule: GroupRule): JsonSchema {
  const each = rule.keys.map((key) => ({ required: [key] }));
  switch (rule.kind) {
    case 'atLeastOneOf':
      return { anyOf: each };
    case 'exactlyOneOf':
      return { oneOf: each };
    case 'mutuallyExclusive':
      return { not: { anyOf: rule.keys.flatMap((first, index) => rule.keys.slice(index + 1).map((second) => ({ required: [first, second] }))) } };
    case 'allOrNoneOf':
      return { anyOf: [{ required: [...rule.keys] }, { not: { anyOf: each } }] };
  }
}
