/**
 * What other plugins may use of submodule updates: nothing yet. A submodule's pointer moves
 * only through the API; a plugin that needs to move one gets a service ref here.
 */
export {};
