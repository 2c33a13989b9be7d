/** The services the runner routes share, built once in `plugin.ts`. */
import type { Database } from '@forgekit/kernel';
import type { AccessService, GroupService, ProjectService } from '@forgekit/plugin-core/contracts';
import type { RunnerLimits } from '../limits/runner-limits.js';
import type { RegistrationTokens } from '../registration/registration-tokens.js';
import type { CreateRunner } from '../runners/runner-creation.js';
import type { RunnerPage } from '../runners/runner-list.js';
import type { RunnerPermissions } from '../runners/runner-permissions.js';
import type { RunnerPresenter } from '../runners/runner-presenter.js';
import type { RunnerStore } from '../runners/runner-store.js';

export interface RunnerDeps {
  database: Database;
  access: AccessService;
  projects: ProjectService;
  groups: GroupService;
  store: RunnerStore;
  permissions: RunnerPermissions;
  presenter: RunnerPresenter;
  runnerPage: RunnerPage;
  createRunner: CreateRunner;
  limits: RunnerLimits;
  registrationTokens: RegistrationTokens;
}
