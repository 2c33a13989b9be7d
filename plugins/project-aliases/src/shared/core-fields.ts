/**
 * Every read of a field of core's objects in this plugin, in one place: core's contract is
 * moving to domain objects, and this is the module that follows it.
 */
import type { Project } from '@forgekit/plugin-core/contracts';

export type CoreProject = Project;

export const projectIdOf = (project: CoreProject) => project.id;
