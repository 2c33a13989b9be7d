/**
 * A route's declared parameters: a valibot object of fields, plus Grape's group rules.
 * Undeclared params are dropped, as Grape's `declared_params` does.
 */
import * as v from 'valibot';
import { messagesWhenMissing } from './fields.js';

type Entries = v.ObjectEntries;
type Rule = (input: Record<string, unknown>) => string | null;

const present = (input: Record<string, unknown>, key: string) => input[key] !== undefined;

/** A group rule as tools that read a route table (API descriptions) see it. */
export interface GroupRule {
  readonly kind: 'mutuallyExclusive' | 'atLeastOneOf' | 'exactlyOneOf' | 'allOrNoneOf';
  readonly keys: readonly string[];
}

const RULE_DESCRIPTIONS = new WeakMap<Rule, GroupRule>();
const described = (kind: GroupRule['kind'], keys: string[], rule: Rule): Rule => {
  RULE_DESCRIPTIONS.set(rule, Object.freeze({ kind, keys: Object.freeze([...keys]) }));
  return rule;
};

/** What a group rule requires, or undefined for a rule not built by `rules`. */
export const describeRule = (rule: Rule): GroupRule | undefined => RULE_DESCRIPTIONS.get(rule);

export const rules = {
  mutuallyExclusive: (...keys: string[]): Rule =>
    described('mutuallyExclusive', keys, (input) =>
      keys.filter((key) => present(input, key)).length > 1 ? `${keys.join(', ')} are mutually exclusive` : null,
    ),
  atLeastOneOf: (...keys: string[]): Rule =>
    described('atLeastOneOf', keys, (input) =>
      keys.some((key) => present(input, key)) ? null : `${keys.join(', ')} are missing, at least one parameter must be provided`,
    ),
  exactlyOneOf: (...keys: string[]): Rule =>
    described('exactlyOneOf', keys, (input) => {
      const count = keys.filter((key) => present(input, key)).length;
      if (count === 0) return `${keys.join(', ')} are missing, exactly one parameter must be provided`;
      return count > 1 ? `${keys.join(', ')} are mutually exclusive` : null;
    }),
  allOrNoneOf: (...keys: string[]): Rule =>
    described('allOrNoneOf', keys, (input) => {
      const count = keys.filter((key) => present(input, key)).length;
      return count === 0 || count === keys.length ? null : `${keys.join(', ')} provide all or none of parameters`;
    }),
};

export interface ParamsSchema<O> {
  readonly schema: v.GenericSchema<unknown, O>;
  readonly rules: readonly Rule[];
}

/** Declares a route's params: `params({ name: f.string() }, rules.atLeastOneOf('name', 'path'))`. */
export function params<E extends Entries>(entries: E, ...groupRules: Rule[]): ParamsSchema<v.InferOutput<v.ObjectSchema<E, undefined>>> {
  return { schema: v.object(entries) as never, rules: groupRules };
}

/**
 * `a[0][b]`: Grape's name for a nested parameter. An item of an array of plain values
 * is reported under the array's own name (`scopes`, not `scopes[0]`).
 */
function paramName(path: readonly { key: unknown }[]): string {
  const keys = path.map((item) => item.key);
  while (keys.length > 1 && typeof keys[keys.length - 1] === 'number') keys.pop();
  return keys.map((key, index) => (index === 0 ? String(key) : `[${String(key)}]`)).join('');
}

function describe(issue: v.BaseIssue<unknown>, entries: v.ObjectEntries): string[] {
  const path = issue.path ?? [];
  if (path.length === 0) return [issue.message];
  const name = paramName(path);
  // valibot reports an absent required key as an object issue with no input.
  if (issue.type === 'object' && issue.input === undefined) {
    const field = path.length === 1 ? entries[String(path[0]!.key)] : undefined;
    return messagesWhenMissing(field).map((message) => `${name} ${message}`);
  }
  return [`${name} ${issue.message}`];
}

/** Validates merged input; returns the output or the Grape error text. */
export function validateParams<O>(declared: ParamsSchema<O>, input: Record<string, unknown>): { output: O } | { error: string } {
  const messages: string[] = [];
  const entries = (declared.schema as unknown as { entries?: v.ObjectEntries }).entries ?? {};
  const result = v.safeParse(declared.schema, input);
  if (!result.success) {
    for (const issue of result.issues) {
      for (const text of describe(issue, entries)) if (!messages.includes(text)) messages.push(text);
    }
  }
  // Group rules are declared after the params they name, so Grape reports them last.
  for (const rule of declared.rules) {
    const message = rule(input);
    if (message && !messages.includes(message)) messages.push(message);
  }
  if (messages.length > 0) return { error: messages.join(', ') };
  return { output: (result as v.SafeParseResult<v.GenericSchema<unknown, O>> & { success: true }).output };
}
