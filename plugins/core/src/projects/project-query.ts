/** Projects read with their namespace's columns (`ns_*`), the shape every project answer starts from. */
import type { Database } from '@forgekit/kernel';
import type { Knex } from '@forgekit/kernel/orm';
import type { NamespaceRow } from '../entities/namespace.js';
import { Project, type ProjectRow } from '../entities/project.js';

const NAMESPACE_FIELDS = ['name', 'path', 'kind', 'full_path', 'full_name', 'parent_id', 'traversal_path', 'owner_id', 'visibility_level'] as const;

type NamespaceField = (typeof NAMESPACE_FIELDS)[number];

/**
 * A row as read: a nullable column is `null` when empty, never missing (MikroORM's inferred
 * entity type makes nullable properties optional).
 */
type Read<Row> = { [K in keyof Row as K extends string ? K : never]-?: Exclude<Row[K], undefined> };

/** A project with its namespace's columns, prefixed `ns_`. */
export type ProjectWithNamespace = Read<ProjectRow & { [K in NamespaceField as `ns_${K}`]: NamespaceRow[K] }>;

/** The namespace columns as `n.<column> as ns_<column>`: text and integers, which need no decoding. */
const NAMESPACE_COLUMNS = NAMESPACE_FIELDS.map((field) => `n.${field} as ns_${field}`);

/** `projects as p` joined with `namespaces as n`, selecting a ProjectWithNamespace: a query to narrow. */
export const projectsWithNamespace = (database: Database): Knex.QueryBuilder =>
  database.legacy.from(Project, 'p').join('namespaces as n', 'n.id', 'p.namespace_id').select(database.legacy.quotedColumns(NAMESPACE_COLUMNS));
