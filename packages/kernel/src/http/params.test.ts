import { describe, expect, it } from 'vitest';
import * as f from './fields.js';
import { params, rules, validateParams } from './params.js';

describe('validateParams', () => {
  it('reports a missing required param', () => {
    expect(validateParams(params({ name: f.string() }), {})).toEqual({ error: 'name is missing' });
  });

  it('reports an explicit null for a required param as missing', () => {
    expect(validateParams(params({ name: f.string() }), { name: null })).toEqual({ error: 'name is missing' });
  });

  it('joins several failures in declaration order', () => {
    const schema = params({ name: f.string(), username: f.string(), id: f.integer() });
    expect(validateParams(schema, { id: 'x' })).toEqual({ error: 'name is missing, username is missing, id is invalid' });
  });

  it('uses bracket names for nested params', () => {
    const schema = params({ variables: f.array(f.hash({ key: f.string(), value: f.string() })) });
    expect(validateParams(schema, { variables: [{ value: 'v' }] })).toEqual({ error: 'variables[0][key] is missing' });
  });

  it('drops undeclared keys', () => {
    const schema = params({ name: f.string(), visibility: f.optional(f.string()) });
    expect(validateParams(schema, { name: 'a', extra: 'b', id: '1' })).toEqual({ output: { name: 'a' } });
  });

  it('returns coerced values', () => {
    const schema = params({ id: f.integer(), archived: f.optional(f.boolean()), sort: f.optional(f.values(['asc', 'desc']), 'desc') });
    expect(validateParams(schema, { id: '5', archived: 'yes' })).toEqual({ output: { id: 5, archived: true, sort: 'desc' } });
  });
});

describe('group rules', () => {
  const optionalAb = { a: f.optional(f.string()), b: f.optional(f.string()), c: f.optional(f.string()) };

  it('mutually exclusive', () => {
    const schema = params(optionalAb, rules.mutuallyExclusive('a', 'b'));
    expect(validateParams(schema, { a: '1', b: '2' })).toEqual({ error: 'a, b are mutually exclusive' });
    expect(validateParams(schema, { a: '1' })).toEqual({ output: { a: '1' } });
    expect(validateParams(schema, {})).toEqual({ output: {} });
  });

  it('at least one of', () => {
    const schema = params(optionalAb, rules.atLeastOneOf('a', 'b'));
    expect(validateParams(schema, { c: '1' })).toEqual({ error: 'a, b are missing, at least one parameter must be provided' });
    expect(validateParams(schema, { a: '1', b: '2' })).toEqual({ output: { a: '1', b: '2' } });
  });

  it('exactly one of', () => {
    const schema = params(optionalAb, rules.exactlyOneOf('a', 'b'));
    expect(validateParams(schema, {})).toEqual({ error: 'a, b are missing, exactly one parameter must be provided' });
    expect(validateParams(schema, { a: '1', b: '2' })).toEqual({ error: 'a, b are mutually exclusive' });
    expect(validateParams(schema, { b: '2' })).toEqual({ output: { b: '2' } });
  });

  it('all or none of', () => {
    const schema = params(optionalAb, rules.allOrNoneOf('a', 'b', 'c'));
    expect(validateParams(schema, { a: '1' })).toEqual({ error: 'a, b, c provide all or none of parameters' });
    expect(validateParams(schema, {})).toEqual({ output: {} });
    expect(validateParams(schema, { a: '1', b: '2', c: '3' })).toEqual({ output: { a: '1', b: '2', c: '3' } });
  });

  it('joins rule failures with field failures', () => {
    const schema = params({ ...optionalAb, id: f.integer() }, rules.mutuallyExclusive('a', 'b'));
    expect(validateParams(schema, { a: '1', b: '2', id: 'x' })).toEqual({ error: 'id is invalid, a, b are mutually exclusive' });
  });
});

describe('Grape message details', () => {
  it('names an item of a plain array by the array', () => {
    const schema = params({ scopes: f.array(f.values(['api', 'read_api'])) });
    expect(validateParams(schema, { scopes: ['api', 'nope', 'other'] })).toEqual({ error: 'scopes does not have a valid value' });
  });

  it('adds the value-list message to a missing value-list param', () => {
    const schema = params({ name: f.string(), scopes: f.array(f.values(['api'])) });
    expect(validateParams(schema, {})).toEqual({ error: 'name is missing, scopes is missing, scopes does not have a valid value' });
  });

  it('adds "is empty" to a missing param that may not be blank, and only "is empty" to a blank one', () => {
    const schema = params({ description: f.string(), ref: f.nonBlankString(), cron: f.string() });
    expect(validateParams(schema, {})).toEqual({ error: 'description is missing, ref is missing, ref is empty, cron is missing' });
    expect(validateParams(schema, { description: 'd', ref: ' ', cron: '* * * * *' })).toEqual({ error: 'ref is empty' });
  });

  it('reports group rules after the params', () => {
    const schema = params({ email: f.string(), password: f.optional(f.string()), reset: f.optional(f.boolean()) }, rules.atLeastOneOf('password', 'reset'));
    expect(validateParams(schema, {})).toEqual({ error: 'email is missing, password, reset are missing, at least one parameter must be provided' });
  });
});
