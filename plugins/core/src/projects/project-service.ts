/** Projects: names, paths and visibility within a namespace. */
import { longerThan, tooLongMessage, validationFailed, type Database } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import type { ProjectLookup } from '../access/access-service.js';
import { Member } from '../entities/member.js';
import { Namespace, type NamespaceRow } from '../entities/namespace.js';
import { Project, type ProjectRow } from '../entities/project.js';
import { AccessLevel, visibilityName } from '../shared/levels.js';
import { addLengthErrors, PROJECT_LENGTHS, TOPIC_LENGTH } from '../shared/length-rules.js';
import { nameError, pathError } from '../shared/path-rules.js';
import type { ProjectWithNamespace } from './project-query.js';
import type { ProjectFieldExtension } from './project-presenter.js';
import { readProjectSettings, type ProjectSettings } from './project-settings.js';

export interface ProjectInput {
  name?: string;
  path?: string;
  description?: string;
  visibilityLevel?: number;
  defaultBranch?: string | null;
  repositoryStorage?: string;
  topics?: string[];
  archived?: boolean;
  settings?: Partial<ProjectSettings>;
}

export function createProjectService(database: Database, lookup: ProjectLookup) {
  const fieldExtensions: ProjectFieldExtension[] = [];

  async function validate(namespace: NamespaceRow, input: ProjectInput, exceptId: number | null) {
    const errors: Record<string, string[]> = {};
    const taken = (column: 'name' | 'path', value: string) => {
      const query = database.legacy.table(Project).where('namespace_id', namespace.id).whereRaw(`lower(${column}) = ?`, [value.toLowerCase()]);
      if (exceptId) query.whereNot('id', exceptId);
      return database.legacy.count(query.limit(1));
    };
    if (input.name !== undefined) {
      const problem = input.name.trim() === '' ? "can't be blank" : nameError(input.name);
      if (problem) errors.name = [problem];
      else if (await taken('name', input.name)) {
        errors['project_namespace.name'] = ['has already been taken'];
        errors.name = ['has already been taken'];
      }
    }
    if (input.path !== undefined) {
      const problem = pathError(input.path);
      if (problem) errors.path = [problem];
      else if (await taken('path', input.path)) errors.path = ['has already been taken'];
    }
    if (input.visibilityLevel !== undefined && namespace.kind === 'group' && input.visibilityLevel > namespace.visibility_level) {
      errors.visibility_level = [`${visibilityName(input.visibilityLevel)} is not allowed in a ${visibilityName(namespace.visibility_level)} group.`];
    }
    addLengthErrors(errors, PROJECT_LENGTHS, {
      ...input,
      default_branch: input.defaultBranch,
      repository_storage: input.repositoryStorage,
      ci_config_path: input.settings?.ci_config_path,
    });
    if (input.topics?.some((topic) => longerThan(topic, TOPIC_LENGTH))) (errors.topics ??= []).push(tooLongMessage(TOPIC_LENGTH));
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
  }

  return {
    /** Project fields another plugin contributes to every representation. */
    fieldExtensions: fieldExtensions as readonly ProjectFieldExtension[],
    extendFields(extension: ProjectFieldExtension) {
      fieldExtensions.push(extension);
    },
    findById: (id: number) => lookup.findProject(String(id)),

    async create(namespace: NamespaceRow, input: ProjectInput & { name: string; path: string }, creatorId: number): Promise<ProjectWithNamespace> {
      await validate(namespace, input, null);
      const now = new Date();
      // The unique index on (namespace, path) settles a create that raced past the check above.
      const pathTaken = () => {
        throw validationFailed({ path: ['has already been taken'] });
      };
      const id = await unlessTaken(
        database.legacy.transaction(async (em) => {
          const projectId = await em.insert(Project, {
            name: input.name,
            path: input.path,
            namespace_id: namespace.id,
            description: input.description ?? '',
            visibility_level: input.visibilityLevel ?? 0,
            default_branch: input.defaultBranch ?? null,
            repository_storage: input.repositoryStorage ?? 'default',
            creator_id: creatorId,
            topics: input.topics ?? [],
            settings: JSON.stringify(input.settings ?? {}),
            created_at: now,
            updated_at: now,
            last_activity_at: now,
          });
          if (namespace.kind === 'user' && namespace.owner_id) {
            // As in GitLab, the owner of a personal namespace is listed as the project's Owner member.
            await em.insert(Member, {
              source_type: 'Project',
              source_id: projectId,
              user_id: namespace.owner_id,
              access_level: AccessLevel.OWNER,
              created_by_id: creatorId,
              created_at: now,
              updated_at: now,
            });
          }
          return projectId;
        }),
        pathTaken,
      );
      return (await lookup.byId.first({ id }))!;
    },

    async update(project: ProjectWithNamespace, input: ProjectInput): Promise<ProjectWithNamespace> {
      const namespace = (await database.legacy.row(Namespace, database.legacy.from(Namespace).where('id', project.namespace_id)))!;
      await validate(
        namespace,
        {
          ...input,
          name: input.name !== undefined && input.name !== project.name ? input.name : undefined,
          path: input.path !== undefined && input.path !== project.path ? input.path : undefined,
        },
        project.id,
      );
      const now = new Date();
      const changes: Partial<ProjectRow> = { updated_at: now, last_activity_at: now };
      if (input.name !== undefined) changes.name = input.name;
      if (input.path !== undefined) changes.path = input.path;
      if (input.description !== undefined) changes.description = input.description;
      if (input.visibilityLevel !== undefined) changes.visibility_level = input.visibilityLevel;
      if (input.defaultBranch !== undefined) changes.default_branch = input.defaultBranch;
      if (input.repositoryStorage !== undefined) changes.repository_storage = input.repositoryStorage;
      if (input.topics !== undefined) changes.topics = input.topics;
      if (input.archived !== undefined) changes.archived = input.archived;
      if (input.settings && Object.keys(input.settings).length > 0) {
        changes.settings = JSON.stringify({ ...JSON.parse(project.settings || '{}'), ...input.settings });
      }
      await database.legacy.em().nativeUpdate(Project, { id: project.id }, changes);
      return (await lookup.byId.first({ id: project.id }))!;
    },

    async remove(projectId: number) {
      await database.legacy.transaction(async (em) => {
        await em.nativeDelete(Member, { source_type: 'Project', source_id: projectId });
        await em.nativeDelete(Project, { id: projectId });
      });
    },

    settingsOf: (project: ProjectRow) => readProjectSettings(project.settings),
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
