import { CiRunnerRegistrationTokenEntity } from './registration-token.js';
import { CiRunnerEntity } from './runner.js';
import { CiRunnerManagerEntity } from './runner-manager.js';
import { CiRunnerProjectEntity } from './runner-project.js';
import { CiRunnerTagEntity } from './runner-tag.js';

export const runnerEntities = [CiRunnerEntity, CiRunnerProjectEntity, CiRunnerTagEntity, CiRunnerManagerEntity, CiRunnerRegistrationTokenEntity];
