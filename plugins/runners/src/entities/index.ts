import { RunnerRegistrationTokenEntity } from './registration-token.js';
import { RunnerEntity } from './runner.js';
import { RunnerManagerEntity } from './runner-manager.js';
import { RunnerProjectEntity } from './runner-project.js';
import { RunnerTagEntity } from './runner-tag.js';

export const runnerEntities = [RunnerEntity, RunnerProjectEntity, RunnerTagEntity, RunnerManagerEntity, RunnerRegistrationTokenEntity];
