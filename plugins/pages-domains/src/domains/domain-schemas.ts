/** JSON Schemas of the Pages domain answers (`domain-presenter.ts`), for the API description. */
import type { JsonSchema } from '@forgekit/kernel';

/** What both views of a domain hold. */
const domainCommonSchema: JsonSchema = {
  type: 'object',
  properties: {
    domain: { type: 'string' },
    url: { type: 'string' },
    verified: { type: 'boolean' },
    verification_code: { type: 'string' },
    enabled_until: { type: ['string', 'null'], format: 'date-time' },
    auto_ssl_enabled: { type: 'boolean' },
    certificate_source: { enum: ['user_provided', 'service_provided'] },
  },
  required: ['domain', 'url', 'verified', 'verification_code', 'enabled_until', 'auto_ssl_enabled', 'certificate_source'],
};

/** `PagesDomain`: a project's domain, with its certificate when one is stored. */
export const domainSchema: JsonSchema = {
  allOf: [
    domainCommonSchema,
    {
      type: 'object',
      properties: {
        certificate: {
          type: 'object',
          properties: { subject: { type: 'string' }, expired: { type: 'boolean' }, certificate: { type: 'string' }, certificate_text: { type: 'string' } },
          required: ['subject', 'expired', 'certificate', 'certificate_text'],
        },
      },
    },
  ],
};

/** `PagesDomainBasic`: a domain in the administrator's list, with its project and when its certificate expires. */
export const domainBasicSchema: JsonSchema = {
  allOf: [
    domainCommonSchema,
    {
      type: 'object',
      properties: {
        project_id: { type: 'integer' },
        certificate_expiration: {
          type: 'object',
          properties: { expired: { type: 'boolean' }, expiration: { type: 'string', format: 'date-time' } },
          required: ['expired', 'expiration'],
        },
      },
      required: ['project_id'],
    },
  ],
};
