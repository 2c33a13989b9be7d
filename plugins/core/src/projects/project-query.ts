/** Projects read with their namespace nested: the domain `Project` every project answer starts from. */
import type { Database } from '@forgekit/kernel';
import type { PreparedRead } from '@forgekit/kernel/orm';
import type { Project } from '../contracts.js';
import { NamespaceEntity } from '../entities/namespace.js';
import { ProjectEntity } from '../entities/project.js';

/** What a project carries of its namespace (`ProjectNamespace`). */
const NAMESPACE_PROPERTIES = [
  'id',
  'name',
  'path',
  'kind',
  'parentId',
  'fullPath',
  'fullName',
  'traversalPath',
  'ownerId',
  'visibilityLevel',
  'lockVersion',
] as const;

/** `projects as p` joined with `namespaces as n`, each row a `Project`: a query to narrow. */
export const projectsWithNamespace = (database: Database) =>
  database.from(ProjectEntity, 'p').join(NamespaceEntity, 'n', 'n.id', 'p.namespaceId').nest('namespace', 'n', NAMESPACE_PROPERTIES);

export type ProjectQuery = ReturnType<typeof projectsWithNamespace>;

/** The rows of a project query, as the domain objects they are (the join is inner: every project has its namespace). */
export const asProjects = <T = Project>(rows: readonly unknown[]) => rows as T[];

/** A prepared project read, answering domain objects. */
export const asProjectRead = <P extends string, T = Project>(read: PreparedRead<unknown, P>) => read as PreparedRead<T, P>;
