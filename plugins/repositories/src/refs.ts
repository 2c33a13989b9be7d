/** The repository service other plugins (wikis, snippets, submodules, storage moves) use. */
import { createServiceRef } from '@forgekit/kernel';
import type { RepositoryService } from './storage/repository-service.js';

export const repositoriesServiceRef = createServiceRef<RepositoryService>('repositories.service');
