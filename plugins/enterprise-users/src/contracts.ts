/**
 * What other plugins may use of enterprise users: nothing yet. `two_factor_enabled` reaches user
 * answers through core's field extensions.
 */
export {};
