/**
 * What other plugins may use of group SAML: nothing yet. Memberships it grants go through
 * core's member service, which announces them.
 */
export {};
