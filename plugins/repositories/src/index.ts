import { repositoriesPlugin } from './plugin.js';

export * from './contracts.js';
export { repositoriesPlugin } from './plugin.js';
export { RepositoriesConfigSchema, diskPathFor, type RepositoriesConfig } from './storage/storages.js';
export { createProjectRepositories, canDownloadCode, canPushCode } from './shared/project-repository.js';
export { git, gitText, GitCommandError } from './git/git-runner.js';
export default repositoriesPlugin;
