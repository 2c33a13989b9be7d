/**
 * What other plugins may use of badges: nothing yet. Badges are read and written only through
 * the API; a plugin that shows them elsewhere would get a service ref here.
 */
export {};
