/**
 * GitLab's model validations for CI/CD variables, in the order GitLab runs them,
 * so error bodies list attributes and messages the same way.
 */
import { longerThan, tooLongMessage } from '@forgekit/kernel';
import { limitExceededMessage } from '@forgekit/plugin-plan-limits/contracts';
import type { CiVariableRow, VariableType } from '../entities/ci-variable.js';
import type { KindRules } from './owner-kinds.js';

export type { VariableType };

/** What a request asks to store: the variable's own fields; `masked` is null only when a request cleared it, which the validation rejects. */
export type Variable = Pick<CiVariableRow, 'key' | 'value' | 'protected' | 'hidden' | 'raw' | 'environmentScope' | 'description'> & {
  variableType: VariableType;
  masked: boolean | null;
};

/** Ordered `{attribute: [messages]}`, as ActiveModel collects them. */
export class ValidationErrors {
  private readonly messages = new Map<string, string[]>();

  add(attribute: string, message: string) {
    const list = this.messages.get(attribute) ?? [];
    list.push(message);
    this.messages.set(attribute, list);
  }

  get empty() {
    return this.messages.size === 0;
  }

  toJSON(): Record<string, string[]> {
    return Object.fromEntries(this.messages);
  }
}

const KEY_FORMAT = /^[a-zA-Z0-9_]+$/;
/** Masked values that are expanded: the Base64 alphabet plus `@ : . ~`, at least 8 characters. */
const MASKABLE = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/;
/** Masked raw values: at least 8 characters without (ASCII) whitespace. */
const MASKABLE_RAW = /^[^ \t\r\n\f\v]{8,}$/u;
const SCOPE_FORMAT = /^[a-zA-Z0-9_/${}. \-*]+$/;

const SCOPE_MESSAGE = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces";
const HIDDEN_MASK_MESSAGE = 'The visibility setting cannot be changed for masked and hidden variables.';
const MAX_LENGTH = 255;

const takenMessage = (key: string) => `(${key}) has already been taken`;

export interface Checks {
  /** The stored variable, on update. */
  previous?: Variable;
  /** A plan limit the owner already reached (create only). */
  limitReached?: { name: string; limit: number };
  /** Another variable of the owner has this key and scope. */
  taken: boolean;
}

/** Every validation error of `variable`, or an empty list. */
export function validateVariable(rules: KindRules, variable: Variable, checks: Checks): ValidationErrors {
  const errors = new ValidationErrors();
  const { key, value } = variable;
  if (key.trim() === '') errors.add('key', "can't be blank");
  if (longerThan(key, MAX_LENGTH)) errors.add('key', tooLongMessage(MAX_LENGTH));
  if (!KEY_FORMAT.test(key)) errors.add('key', "can contain only letters, digits and '_'.");

  if (variable.masked === null) errors.add('masked', 'is not included in the list');
  else if (variable.masked && !(variable.raw ? MASKABLE_RAW : MASKABLE).test(value)) errors.add('value', 'is invalid');

  const { previous } = checks;
  if (previous?.hidden && variable.masked !== previous.masked) errors.add('base', HIDDEN_MASK_MESSAGE);
  if (checks.limitReached) errors.add('base', limitExceededMessage(checks.limitReached.name, checks.limitReached.limit));

  if (rules.scoped) {
    const scope = variable.environmentScope;
    if (scope === '') errors.add('environment_scope', "can't be blank");
    else if (!SCOPE_FORMAT.test(scope)) errors.add('environment_scope', SCOPE_MESSAGE);
    if (longerThan(scope, MAX_LENGTH)) errors.add('environment_scope', tooLongMessage(MAX_LENGTH));
  }
  if (variable.description && longerThan(variable.description, MAX_LENGTH)) errors.add('description', tooLongMessage(MAX_LENGTH));
  if (checks.taken) errors.add('key', takenMessage(key));
  if (longerThan(value, rules.valueLimit.max)) errors.add('value', rules.valueLimit.message);
  return errors;
}
