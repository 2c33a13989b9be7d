/**
 * What other plugins may use of project aliases: nothing yet. Git over HTTP reaches them
 * through the repositories plugin's `gitPathsRef`, where this plugin registers its resolver.
 */
export {};
