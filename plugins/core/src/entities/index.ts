import { ApplicationSetting } from './application-setting.js';
import { Member } from './member.js';
import { Namespace } from './namespace.js';
import { PersonalAccessToken } from './personal-access-token.js';
import { Project } from './project.js';
import { User } from './user.js';

export const coreEntities = [User, Namespace, Project, Member, PersonalAccessToken, ApplicationSetting];
