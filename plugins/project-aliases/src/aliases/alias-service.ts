/**
 * Project aliases (GitLab's `ProjectAlias`): a name unique across the instance, in the
 * project path format, standing for one project.
 */
import { longerThan, recordNotFound, tooLongMessage, validationFailed } from '@forgekit/kernel';
import type { AliasStore, ProjectAlias } from './alias-store.js';

export const NAME_LIMIT = 255;
/** GitLab's `project_path_format_message`. */
export const NAME_FORMAT_MESSAGE = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
/** GitLab's `project_path_format_regex`: no leading `-`, no trailing `.git` or `.atom`. */
const NAME_FORMAT = /^[a-zA-Z0-9_.][a-zA-Z0-9_\-.]*$/;

function nameErrors(name: string, taken: boolean): string[] {
  const errors: string[] = [];
  if (name.trim() === '') errors.push("can't be blank");
  if (longerThan(name, NAME_LIMIT)) errors.push(tooLongMessage(NAME_LIMIT));
  if (taken) errors.push('has already been taken');
  if (!NAME_FORMAT.test(name) || /\.(git|atom)$/.test(name)) errors.push(NAME_FORMAT_MESSAGE);
  return errors;
}

export function createAliasService(store: AliasStore) {
  return {
    list: (limit: number, offset: number) => store.list(limit, offset),
    count: () => store.count(),

    /** The alias, or `404 Not found`. */
    async find(name: string): Promise<ProjectAlias> {
      const alias = await store.findByName(name);
      if (!alias) throw recordNotFound();
      return alias;
    },

    async create(projectId: number, name: string): Promise<ProjectAlias> {
      const errors = nameErrors(name, false);
      if (errors.length > 0) throw validationFailed({ name: errors });
      const alias = await store.insert(projectId, name);
      if (alias) return alias;
      throw validationFailed({ name: nameErrors(name, true) });
    },

    remove: (alias: ProjectAlias) => store.remove(alias.id),
    removeAllOf: (projectId: number) => store.removeAllOf(projectId),

    /** The project a top-level git name stands for, for git over HTTP. */
    projectIdFor: async (name: string) => (await store.findByName(name))?.projectId ?? null,
  };
}

export type AliasService = ReturnType<typeof createAliasService>;
