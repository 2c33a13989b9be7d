/** Users as core answers them: every property but the password hash, which never leaves core. */
import type { Database } from '@forgekit/kernel';
import { UserEntity } from '../entities/user.js';

/** The properties of the domain `User`. */
export const USER_PROPERTIES = [
  'id',
  'username',
  'name',
  'email',
  'state',
  'admin',
  'external',
  'bot',
  'privateProfile',
  'canCreateGroup',
  'projectsLimit',
  'bio',
  'location',
  'publicEmail',
  'websiteUrl',
  'organization',
  'jobTitle',
  'pronouns',
  'note',
  'namespaceId',
  'createdById',
  'confirmedAt',
  'lastActivityOn',
  'createdAt',
  'updatedAt',
  'lockVersion',
] as const;

/** What `userBasic` shows of a user, read beside another row (a member, a project's owner). */
export const USER_BASIC_PROPERTIES = ['id', 'username', 'name', 'state', 'publicEmail', 'lockVersion'] as const;

/** Users, selecting the domain `User`: a query to narrow. */
export const usersQuery = (database: Database) => database.table(UserEntity).select(...USER_PROPERTIES);
