import { defineRoute, frameworkError, validateParams, params, type Route } from '@forgekit/kernel';
import type { SettingsService } from '../contracts.js';
import * as v from 'valibot';
import { applicationSettingsSchema } from './settings-schemas.js';

export function settingsRoutes(settings: SettingsService): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/application/settings',
      auth: 'admin',
      response: { schema: applicationSettingsSchema },
      handler: async () => ({ id: 1, ...(await settings.all()) }),
    }),
    defineRoute({
      method: 'PUT',
      path: '/application/settings',
      auth: 'admin',
      response: { schema: applicationSettingsSchema },
      // The declared params are whatever plugins defined, so they are read at request time.
      input: { schema: v.record(v.string(), v.unknown()), rules: [] },
      async handler(_ctx, input: Record<string, unknown>) {
        const declared = params(Object.fromEntries(settings.definitions().map((d) => [d.key, v.optional(d.field)])));
        const result = validateParams(declared, input);
        if ('error' in result) throw frameworkError(400, result.error);
        const values = Object.fromEntries(Object.entries(result.output).filter(([, value]) => value !== undefined));
        await settings.set(values);
        return { id: 1, ...(await settings.all()) };
      },
    }),
  ];
}
