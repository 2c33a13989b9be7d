/**
 * Declared parameters per owner kind, in GitLab's declaration order (it decides the
 * order of joined validation messages).
 */
import { f, params } from '@forgekit/kernel';
import type * as v from 'valibot';
import type { OwnerKind } from './owner-kinds.js';

const VARIABLE_TYPES = ['env_var', 'file'] as const;

const filter = () => f.optional(f.hash({ environment_scope: f.optional(f.string()) }));
const bool = () => f.optional(f.boolean());
const text = () => f.optional(f.string());
const variableType = () => f.optional(f.values(VARIABLE_TYPES));

const createParams = {
  project: params({
    key: f.string(),
    value: f.string(),
    protected: bool(),
    masked: bool(),
    masked_and_hidden: bool(),
    raw: bool(),
    variable_type: variableType(),
    environment_scope: text(),
    description: text(),
  }),
  group: params({
    key: f.string(),
    value: f.string(),
    protected: bool(),
    masked_and_hidden: bool(),
    masked: bool(),
    raw: bool(),
    variable_type: variableType(),
    environment_scope: text(),
    description: text(),
  }),
  instance: params({
    key: f.string(),
    description: text(),
    value: f.string(),
    protected: bool(),
    masked: bool(),
    raw: bool(),
    variable_type: variableType(),
  }),
};

const updateParams = {
  project: params({
    value: text(),
    protected: bool(),
    masked: bool(),
    environment_scope: text(),
    raw: bool(),
    variable_type: variableType(),
    filter: filter(),
    description: text(),
  }),
  group: params({
    value: text(),
    protected: bool(),
    masked: bool(),
    raw: bool(),
    variable_type: variableType(),
    environment_scope: text(),
    description: text(),
    filter: filter(),
  }),
  instance: params({ description: text(), value: text(), protected: bool(), masked: bool(), raw: bool(), variable_type: variableType() }),
};

const lookupParams = params({ filter: filter() });

export type CreateInput = v.InferOutput<(typeof createParams)['project']['schema']>;
export type UpdateInput = v.InferOutput<(typeof updateParams)['project']['schema']>;
export type LookupInput = v.InferOutput<(typeof lookupParams)['schema']>;

export const createParamsFor = (kind: OwnerKind) => createParams[kind] as typeof createParams.project;
export const updateParamsFor = (kind: OwnerKind) => updateParams[kind] as typeof updateParams.project;
/** `filter[environment_scope]`; instance variables have no scopes and take no filter. */
export const lookupParamsFor = (kind: OwnerKind) => (kind === 'instance' ? params({}) : lookupParams) as typeof lookupParams;
