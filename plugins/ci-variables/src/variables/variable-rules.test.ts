import { describe, expect, it } from 'vitest';
import { KIND_RULES } from './owner-kinds.js';
import { validateVariable, type Variable } from './variable-rules.js';

const variable = (changes: Partial<Variable> = {}): Variable => ({
  key: 'KEY',
  value: 'value',
  variableType: 'env_var',
  protected: false,
  masked: false,
  hidden: false,
  raw: false,
  environmentScope: '*',
  description: null,
  ...changes,
});

const errorsOf = (changes: Partial<Variable>, checks: Parameters<typeof validateVariable>[2] = { taken: false }, kind: keyof typeof KIND_RULES = 'project') =>
  validateVariable(KIND_RULES[kind], variable(changes), checks).toJSON();

describe('variable rules', () => {
  it('accepts a plain variable', () => {
    expect(errorsOf({})).toEqual({});
  });

  it('counts characters as Ruby does, not UTF-16 units', () => {
    expect(errorsOf({ description: '😀'.repeat(255) })).toEqual({});
    expect(errorsOf({ description: '😀'.repeat(256) })).toEqual({ description: ['is too long (maximum is 255 characters)'] });
    expect(errorsOf({ masked: true, raw: true, value: '😀😀😀😀😀😀😀' })).toEqual({ value: ['is invalid'] });
  });

  it('treats only ASCII whitespace as whitespace in raw masked values', () => {
    expect(errorsOf({ masked: true, raw: true, value: 'non\u00a0breaking' })).toEqual({});
    expect(errorsOf({ masked: true, raw: true, value: 'tab\tinside' })).toEqual({ value: ['is invalid'] });
  });

  it('rejects a masked flag cleared to null', () => {
    expect(errorsOf({ masked: null })).toEqual({ masked: ['is not included in the list'] });
  });

  it('refuses to change masking of a hidden variable, but not to keep it', () => {
    const previous = variable({ masked: true, hidden: true, value: 'abcdefgh' });
    expect(errorsOf({ masked: true, hidden: true, value: 'abcdefgh' }, { previous, taken: false })).toEqual({});
    expect(errorsOf({ masked: false, hidden: true, value: 'abcdefgh' }, { previous, taken: false })).toEqual({
      base: ['The visibility setting cannot be changed for masked and hidden variables.'],
    });
  });

  it('orders attributes as GitLab validates them', () => {
    const errors = errorsOf(
      { key: 'BAD-KEY', masked: true, value: 'short', environmentScope: '#', description: 'd'.repeat(300) },
      { taken: true, limitReached: { name: 'project_ci_variables', limit: 2 } },
    );
    expect(Object.keys(errors)).toEqual(['key', 'value', 'base', 'environment_scope', 'description']);
    expect(errors.key).toEqual(["can contain only letters, digits and '_'.", '(BAD-KEY) has already been taken']);
    expect(errors.base).toEqual(['Maximum number of project ci variables (2) exceeded']);
  });

  it('checks no scope on instance variables but limits their value length', () => {
    expect(errorsOf({ environmentScope: '#', value: 'x'.repeat(10_001) }, { taken: false }, 'instance')).toEqual({
      value: ['The value of the provided variable exceeds the 10000 character limit'],
    });
  });
});
