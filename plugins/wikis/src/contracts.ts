/**
 * What other plugins may use of wikis: nothing yet. Wiki pages reach notes as the
 * `WikiPage` noteable kind of `@forgekit/plugin-notes/contracts`, registered by this plugin.
 */
export {};
