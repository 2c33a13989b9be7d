/** JSON Schemas of the variable answers (`variable-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';
import type { OwnerKind } from './owner-kinds.js';

/** What every variable answer holds; `value` is null once the variable is hidden. */
const variableSchema: JsonSchema = {
  type: 'object',
  properties: {
    variable_type: { type: 'string', enum: ['env_var', 'file'] },
    key: { type: 'string' },
    value: { type: ['string', 'null'] },
    protected: { type: 'boolean' },
    masked: { type: 'boolean' },
    raw: { type: 'boolean' },
    description: { type: ['string', 'null'] },
  },
  required: ['variable_type', 'key', 'value', 'protected', 'masked', 'raw', 'description'],
};

/** A project's or group's variable: scoped to environments, and possibly hidden. */
const scopedVariableSchema: JsonSchema = {
  allOf: [
    variableSchema,
    {
      type: 'object',
      properties: { hidden: { type: 'boolean' }, environment_scope: { type: 'string' } },
      required: ['hidden', 'environment_scope'],
    },
  ],
};

/** An instance variable is never hidden, so its value is always shown. */
const instanceVariableSchema: JsonSchema = {
  allOf: [variableSchema, { type: 'object', properties: { value: { type: 'string' } } }],
};

export const variableSchemaFor = (kind: OwnerKind): JsonSchema => (kind === 'instance' ? instanceVariableSchema : scopedVariableSchema);
