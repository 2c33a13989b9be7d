/**
 * What other plugins may use of snippets: nothing yet. Snippets reach other plugins through
 * theirs (notes, repository storage moves) rather than the other way round.
 */
export {};
