/**
 * `forgekit saml-provider show|set|delete --group <path or id>`: a top-level group's SAML
 * provider from the command line, as the administrator, through the same service and the
 * same input declaration as `/groups/:id/saml_provider`.
 */
import { frameworkError, kernelServices, validateParams, type CommandContext, type CommandValues, type PluginCommand } from '@forgekit/kernel';
import { coreAccessRef } from '@forgekit/plugin-core/contracts';
import { providerParams, settingsOf } from './provider-input.js';
import { presentProvider } from './provider-presenter.js';
import { createProviderService } from './provider-service.js';
import { createProviderStore } from './provider-store.js';

const group = { type: 'string', value: 'PATH|ID', description: 'The top-level group, by full path or id', required: true } as const;

async function prepare(ctx: CommandContext, values: CommandValues) {
  const service = createProviderService(createProviderStore(ctx.resolve(kernelServices.database)));
  const { group: found } = await ctx.resolve(coreAccessRef).requireGroup(await ctx.administrator(), values.group as string);
  return { service, group: found };
}

export const samlProviderCommand: PluginCommand = {
  name: 'saml-provider',
  description: "Show, set or delete a top-level group's SAML provider",
  subcommands: [
    {
      name: 'show',
      description: "Print the group's SAML provider as JSON",
      options: { group },
      async run(ctx, values) {
        const { service, group: found } = await prepare(ctx, values);
        return presentProvider(await service.require(found.id));
      },
    },
    {
      name: 'set',
      description: "Create or change the group's SAML provider and print it as JSON",
      help: `Options not given keep their value. A new provider needs --sso-url and
--certificate-fingerprint; it is enabled, with Guest as the default role, unless told otherwise.`,
      options: {
        group,
        'sso-url': { type: 'string', value: 'URL', description: "The identity provider's sign-in URL (https)" },
        'certificate-fingerprint': {
          type: 'string',
          value: 'HEX',
          description: "The SHA-1 or SHA-256 fingerprint of the identity provider's signing certificate (colons optional)",
        },
        'default-membership-role': {
          type: 'string',
          value: 'LEVEL',
          description: 'The level a first sign-in gives in the group: 10 Guest, 15 Planner, 20 Reporter, 30 Developer, 40 Maintainer',
        },
        enabled: { type: 'string', value: 'true|false', description: 'Whether members may sign in through the provider' },
      },
      async run(ctx, values) {
        const given = {
          enabled: values.enabled,
          sso_url: values['sso-url'],
          certificate_fingerprint: values['certificate-fingerprint'],
          default_membership_role: values['default-membership-role'],
        };
        const checked = validateParams(providerParams, Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined)));
        if ('error' in checked) throw frameworkError(400, checked.error);
        const { service, group: found } = await prepare(ctx, values);
        return presentProvider(await service.save(found, settingsOf(checked.output)));
      },
    },
    {
      name: 'delete',
      description: "Delete the group's SAML provider and the identities at it",
      options: { group },
      async run(ctx, values) {
        const { service, group: found } = await prepare(ctx, values);
        await service.remove(await service.require(found.id));
        return `deleted the SAML provider of ${found.fullPath}`;
      },
    },
  ],
};
