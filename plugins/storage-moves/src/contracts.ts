/**
 * What other plugins may use of storage moves: nothing yet. Moves are scheduled through the
 * API and when a project's `repository_storage` changes; a plugin that needs to schedule or
 * watch one gets a service ref or an event here.
 */
export {};
