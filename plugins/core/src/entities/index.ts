import { ApplicationSettingEntity } from './application-setting.js';
import { MemberEntity } from './member.js';
import { NamespaceEntity } from './namespace.js';
import { PersonalAccessTokenEntity } from './personal-access-token.js';
import { ProjectEntity } from './project.js';
import { UserEntity } from './user.js';

export const coreEntities = [UserEntity, NamespaceEntity, ProjectEntity, MemberEntity, PersonalAccessTokenEntity, ApplicationSettingEntity];
