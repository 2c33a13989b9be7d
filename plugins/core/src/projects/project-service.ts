/** Projects: names, paths and visibility within a namespace. */
import { longerThan, patchFrom, tooLongMessage, validationFailed, type Database } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import type { ProjectLookup } from '../access/access-service.js';
import type { Namespace, Project, ProjectFieldExtension, ProjectInput, ProjectService } from '../contracts.js';
import { MemberEntity } from '../entities/member.js';
import { NamespaceEntity } from '../entities/namespace.js';
import { ProjectEntity, type ProjectRow } from '../entities/project.js';
import { AccessLevel, visibilityName } from '../shared/levels.js';
import { addLengthErrors, PROJECT_LENGTHS, TOPIC_LENGTH } from '../shared/length-rules.js';
import { nameError, pathError } from '../shared/path-rules.js';
import { readProjectSettings } from './project-settings.js';

export function createProjectService(database: Database, lookup: ProjectLookup): ProjectService {
  const fieldExtensions: ProjectFieldExtension[] = [];

  async function validate(namespace: Namespace, input: ProjectInput, exceptId: number | null) {
    const errors: Record<string, string[]> = {};
    const taken = (property: 'name' | 'path', value: string) => {
      const query = database.table(ProjectEntity).where('namespaceId', namespace.id).whereIgnoringCase(property, value);
      if (exceptId) query.whereNot('id', exceptId);
      return database.count(query.limit(1));
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
    if (input.visibilityLevel !== undefined && namespace.kind === 'group' && input.visibilityLevel > namespace.visibilityLevel) {
      errors.visibility_level = [`${visibilityName(input.visibilityLevel)} is not allowed in a ${visibilityName(namespace.visibilityLevel)} group.`];
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
    fieldExtensions,
    extendFields(extension) {
      fieldExtensions.push(extension);
    },
    findById: (id) => lookup.findProject(String(id)),

    async create(namespace, input, creatorId): Promise<Project> {
      await validate(namespace, input, null);
      const now = new Date();
      // The unique index on (namespace, path) settles a create that raced past the check above.
      const pathTaken = () => {
        throw validationFailed({ path: ['has already been taken'] });
      };
      const row = {
        name: input.name,
        path: input.path,
        namespaceId: namespace.id,
        description: input.description ?? '',
        visibilityLevel: input.visibilityLevel ?? 0,
        defaultBranch: input.defaultBranch ?? null,
        repositoryStorage: input.repositoryStorage ?? 'default',
        creatorId,
        topics: input.topics ?? [],
        settings: JSON.stringify(input.settings ?? {}),
        createdAt: now,
        updatedAt: now,
        lastActivityAt: now,
      };
      const ownerId = namespace.kind === 'user' ? namespace.ownerId : null;
      const id = await unlessTaken(
        // A project in a group is one row: a transaction around it would only add its two statements.
        !ownerId
          ? database.insert(ProjectEntity, row)
          : database.transaction(async (tx) => {
              const projectId = await database.insert(ProjectEntity, row, { tx });
              // As in GitLab, the owner of a personal namespace is listed as the project's Owner member.
              await database.insert(
                MemberEntity,
                {
                  sourceType: 'Project',
                  sourceId: projectId,
                  userId: ownerId,
                  accessLevel: AccessLevel.OWNER,
                  createdById: creatorId,
                  createdAt: now,
                  updatedAt: now,
                },
                { tx },
              );
              return projectId;
            }),
        pathTaken,
      );
      return (await lookup.byId.first({ id }))!;
    },

    async update(project, input): Promise<Project> {
      const namespace = (await database.row(database.from(NamespaceEntity).where('id', project.namespaceId))) as Namespace;
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
      const changes: Partial<ProjectRow> = {
        ...patchFrom<ProjectRow, ProjectInput>(input, {
          name: 'name',
          path: 'path',
          description: 'description',
          visibilityLevel: 'visibilityLevel',
          defaultBranch: 'defaultBranch',
          repositoryStorage: 'repositoryStorage',
          topics: 'topics',
          archived: 'archived',
        }),
        updatedAt: now,
        lastActivityAt: now,
      };
      if (input.settings && Object.keys(input.settings).length > 0) {
        changes.settings = JSON.stringify({ ...JSON.parse(project.settings || '{}'), ...input.settings });
      }
      await database.update(ProjectEntity, { id: project.id }, changes);
      return (await lookup.byId.first({ id: project.id }))!;
    },

    async remove(projectId) {
      await database.transaction(async (tx) => {
        await database.delete(MemberEntity, { sourceType: 'Project', sourceId: projectId }, { tx });
        await database.delete(ProjectEntity, { id: projectId }, { tx });
      });
    },

    settingsOf: (project) => readProjectSettings(project.settings),
  };
}
