import { CiRunnerRegistrationToken } from './registration-token.js';
import { CiRunner } from './runner.js';
import { CiRunnerManager } from './runner-manager.js';
import { CiRunnerProject } from './runner-project.js';
import { CiRunnerTag } from './runner-tag.js';

export const runnerEntities = [CiRunner, CiRunnerProject, CiRunnerTag, CiRunnerManager, CiRunnerRegistrationToken];
