/**
 * What other plugins may use of invitations: nothing yet. Invitations become memberships
 * through core's member service, which announces them (`coreEvents.memberAdded`).
 */
export {};
