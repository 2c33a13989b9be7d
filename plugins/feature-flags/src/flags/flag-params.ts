/** The feature flag routes' params and their types. */
import { f, params } from '@forgekit/kernel';
import type * as v from 'valibot';
import { json } from '../shared/json-field.js';

export const listFlagParams = params({
  scope: f.optional(f.values(['enabled', 'disabled'])),
});

export const createFlagParams = params({
  name: f.string(),
  description: f.optional(f.string()),
  active: f.optional(f.boolean()),
  version: f.optional(f.string()),
  strategies: f.optional(
    f.array(
      f.hash({
        name: f.string(),
        parameters: f.optional(json()),
        user_list_id: f.optional(f.id()),
        scopes: f.optional(f.array(f.hash({ environment_scope: f.string() }))),
      }),
    ),
  ),
});

export const updateFlagParams = params({
  name: f.optional(f.string()),
  description: f.optional(f.string()),
  active: f.optional(f.boolean()),
  strategies: f.optional(
    f.array(
      f.hash({
        id: f.optional(f.id()),
        name: f.optional(f.string()),
        parameters: f.optional(json()),
        user_list_id: f.optional(f.id()),
        _destroy: f.optional(f.boolean()),
        scopes: f.optional(
          f.array(
            f.hash({
              id: f.optional(f.id()),
              environment_scope: f.optional(f.string()),
              _destroy: f.optional(f.boolean()),
            }),
          ),
        ),
      }),
    ),
  ),
});

export type CreateFlagInput = v.InferOutput<typeof createFlagParams.schema>;
export type UpdateFlagInput = v.InferOutput<typeof updateFlagParams.schema>;
