import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import * as f from '../http/fields.js';
import { params, rules, validateParams } from '../http/params.js';
import { ruleSchema } from './rule-schema.js';
import { describeRule } from '../http/params.js';

const ajv = new Ajv2020();
const keys = ['a', 'b', 'c'];
/** Every combination of sent keys, null counting as sent (as Grape counts it). */
const inputs = Array.from({ length: 27 }, (_, n) =>
  Object.fromEntries(
    keys.flatMap((key, index) => {
      const state = Math.floor(n / 3 ** index) % 3;
      return state === 0 ? [] : [[key, state === 1 ? 'x' : null]];
    }),
  ),
);

describe('group rules as JSON Schema', () => {
  it.each(['mutuallyExclusive', 'atLeastOneOf', 'exactlyOneOf', 'allOrNoneOf'] as const)('%s accepts exactly what the kernel accepts', (kind) => {
    const rule = rules[kind](...keys);
    const declared = params({ a: f.optional(f.string()), b: f.optional(f.string()), c: f.optional(f.string()) }, rule);
    const validate = ajv.compile(ruleSchema(describeRule(rule)!));
    const disagreements = inputs.filter((input) => validate(input) !== !('error' in validateParams(declared, input)));
    expect(disagreements).toEqual([]);
  });

  it('describes only the rules it built', () => {
    expect(describeRule(rules.exactlyOneOf('x', 'y'))).toEqual({ kind: 'exactlyOneOf', keys: ['x', 'y'] });
    expect(describeRule(() => null)).toBeUndefined();
  });
});
