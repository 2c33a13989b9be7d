/** The database engines forgekit runs on. */
export type Dialect = 'sqlite' | 'postgresql';
