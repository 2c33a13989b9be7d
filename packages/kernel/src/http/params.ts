/**
 * A route's declared parameters: a valibot object of fields, plus Grape's group rules.
 * Undeclared params are dropped, as Grape's `declared_params` does.
 */
import * as v from 'valibot';

type Entries = v.ObjectEntries;
type Rule = (input: Record<string, unknown>) => string | null;

const present = (input: Record<string, unknown>, key: string) => input[key] !== undefined;

export const rules = {
  mutuallyExclusive: (...keys: string[]): Rule => (input) =>
    keys.filter((key) => present(input, key)).length > 1 ? `${keys.join(', ')} are mutually exclusive` : null,
  atLeastOneOf: (...keys: string[]): Rule => (input) =>
    keys.some((key) => present(input, key)) ? null : `${keys.join(', ')} are missing, at least one parameter must be provided`,
  exactlyOneOf: (...keys: string[]): Rule => (input) => {
    const count = keys.filter((key) => present(input, key)).length;
    if (count === 0) return `${keys.join(', ')} are missing, exactly one parameter must be provided`;
    return count > 1 ? `${keys.join(', ')} are mutually exclusive` : null;
  },
  allOrNoneOf: (...keys: string[]): Rule => (input) => {
    const count = keys.filter((key) => present(input, key)).length;
    return count === 0 || count === keys.length ? null : `${keys.join(', ')} provide all or none of parameters`;
  },
};

export interface ParamsSchema<O> {
  readonly schema: v.GenericSchema<unknown, O>;
  readonly rules: readonly Rule[];
}

/** Declares a route's params: `params({ name: f.string() }, rules.atLeastOneOf('name', 'path'))`. */
export function params<E extends Entries>(entries: E, ...groupRules: Rule[]): ParamsSchema<v.InferOutput<v.ObjectSchema<E, undefined>>> {
  return { schema: v.object(entries) as never, rules: groupRules };
}

/** `a[b][0]`: Grape's name for a nested parameter. */
function paramName(path: readonly { key: unknown }[]): string {
  return path.map((item, index) => (index === 0 ? String(item.key) : `[${String(item.key)}]`)).join('');
}

function describe(issue: v.BaseIssue<unknown>): string {
  const path = issue.path ?? [];
  if (path.length === 0) return issue.message;
  // valibot reports an absent required key as an object issue with no input.
  const text = issue.type === 'object' && issue.input === undefined ? 'is missing' : issue.message;
  return `${paramName(path)} ${text}`;
}

/** Validates merged input; returns the output or the Grape error text. */
export function validateParams<O>(declared: ParamsSchema<O>, input: Record<string, unknown>): { output: O } | { error: string } {
  const messages: string[] = [];
  for (const rule of declared.rules) {
    const message = rule(input);
    if (message) messages.push(message);
  }
  const result = v.safeParse(declared.schema, input);
  if (!result.success) {
    for (const issue of result.issues) {
      const text = describe(issue);
      if (!messages.includes(text)) messages.push(text);
    }
  }
  if (messages.length > 0) return { error: messages.join(', ') };
  return { output: (result as v.SafeParseResult<v.GenericSchema<unknown, O>> & { success: true }).output };
}
