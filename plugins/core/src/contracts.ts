/**
 * What other plugins may use of the core plugin: its service refs, the domain objects its
 * services answer in (users, namespaces, projects, members, tokens), its events, its
 * constants and GitLab's shared wire entities. Nothing here reaches core's tables.
 */
import { createServiceRef, type IdQuery, type Principal, type Transaction } from '@forgekit/kernel';
import type * as v from 'valibot';
import type { UserFieldExtension, Viewer } from './users/user-presenter.js';
import type { GroupSettings } from './groups/group-settings.js';
import type { ProjectSettings } from './projects/project-settings.js';

export { coreEvents, type MemberEventPayload } from './events.js';
export { AccessLevel, accessLevelName, Visibility, visibilityName } from './shared/levels.js';
export { CI_STATUSES, COMPLETED_CI_STATUSES, type CiStatus } from './shared/ci-statuses.js';
/** The guard that refuses writes to archived projects: a route that must still write there names it in `exemptFrom`. */
export { ARCHIVED_PROJECT_GUARD } from './access/archived-project-guard.js';
export { ALL_SCOPES, TOKEN_PREFIX } from './tokens/scopes.js';
/** GitLab's shared wire entities, for other plugins' representations of users, projects and protection. */
export { userBasic, userPublic } from './users/user-presenter.js';
export { userBasicSchema } from './users/user-schemas.js';
export { principalOf } from './users/user-principal.js';
export type { UserFieldExtension, Viewer } from './users/user-presenter.js';
/** The user that takes over what deleted users authored. */
export { ghostUser } from './users/ghost-user.js';
export { projectFeatureOpen } from './projects/project-feature.js';
export { projectIdentity, type ProjectIdentitySource } from './projects/project-presenter.js';
export { branchProtectionDefaults } from './groups/group-presenter.js';
/** The JSON Schemas of those entities, for other plugins' API descriptions. */
export { namespaceBasicSchema } from './shared/namespace-schemas.js';
export { projectBasicSchema, projectIdentitySchema, projectSchema } from './projects/project-schemas.js';
export { branchProtectionDefaultsSchema, groupSchema } from './groups/group-schemas.js';
export { bulkMembershipResultSchema, memberSchema } from './members/member-schemas.js';
export type { GroupSettings, ProjectSettings };

/** A user account. */
export interface User {
  id: number;
  username: string;
  name: string;
  email: string;
  /** `active`, `blocked`, `deactivated`, … */
  state: string;
  admin: boolean;
  external: boolean;
  bot: boolean;
  privateProfile: boolean;
  canCreateGroup: boolean;
  projectsLimit: number;
  bio: string;
  location: string;
  publicEmail: string | null;
  websiteUrl: string;
  organization: string;
  jobTitle: string;
  pronouns: string | null;
  note: string | null;
  /** The user's personal namespace. */
  namespaceId: number | null;
  createdById: number | null;
  confirmedAt: Date | null;
  /** `YYYY-MM-DD`. */
  lastActivityOn: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** Raised by every update of the row (read where a cached answer needs it). */
  lockVersion?: number;
}

/** A user's personal namespace, or a group. */
export interface Namespace {
  id: number;
  name: string;
  path: string;
  kind: 'user' | 'group';
  parentId: number | null;
  /** `parent/child`. */
  fullPath: string;
  /** `Parent Name / Child Name`. */
  fullName: string;
  /** `/1/5/9/`: the ids from the root down, so a descendant's path starts with its ancestors'. */
  traversalPath: string;
  /** The user of a personal namespace. */
  ownerId: number | null;
  visibilityLevel: number;
  description: string;
  /** Group settings as JSON text. */
  settings: string;
  createdAt: Date;
  updatedAt: Date;
  /** Raised by every update of the row (read where a cached answer needs it). */
  lockVersion?: number;
}

/** What a project carries of its namespace. */
export type ProjectNamespace = Pick<
  Namespace,
  'id' | 'name' | 'path' | 'kind' | 'parentId' | 'fullPath' | 'fullName' | 'traversalPath' | 'ownerId' | 'visibilityLevel' | 'lockVersion'
>;

/** A project, with its namespace. */
export interface Project {
  id: number;
  name: string;
  path: string;
  namespaceId: number;
  description: string;
  visibilityLevel: number;
  defaultBranch: string | null;
  repositoryStorage: string;
  creatorId: number | null;
  archived: boolean;
  topics: string[];
  /** Project settings as JSON text (see `ProjectService.settingsOf`). */
  settings: string;
  createdAt: Date;
  updatedAt: Date;
  lastActivityAt: Date;
  /** Raised by every update of the row (read where a cached answer needs it). */
  lockVersion?: number;
  namespace: ProjectNamespace;
}

/** A user's membership of a project or a group (a `Namespace` source). */
export interface Member {
  id: number;
  sourceType: 'Project' | 'Namespace';
  sourceId: number;
  userId: number;
  accessLevel: number;
  /** `YYYY-MM-DD`. */
  expiresAt: string | null;
  createdById: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A personal access token; its secret is shown once, when it is created. */
export interface PersonalAccessToken {
  id: number;
  userId: number;
  name: string;
  description: string | null;
  scopes: string[];
  revoked: boolean;
  /** `YYYY-MM-DD`. */
  expiresAt: string | null;
  lastUsedAt: Date | null;
  /** The token this one was rotated from. */
  previousTokenId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProjectAccess {
  project: Project;
  /** Effective level for permission checks (admins count as owners). */
  level: number;
  /** Direct project membership, or owner of a personal project. */
  projectLevel: number | null;
  /** Highest membership in the project's group or its ancestors. */
  groupLevel: number | null;
  canRead: boolean;
}

/** A user's levels on a project, as `permissions` shows them. */
export interface ProjectPermissions {
  /** Direct project membership, or owner of a personal project. */
  projectLevel: number | null;
  /** Highest membership in the project's group or its ancestors. */
  groupLevel: number | null;
}

export interface GroupAccess {
  group: Namespace;
  level: number;
  /** Direct membership in this group. */
  directLevel: number | null;
  /** Highest membership in this group or its ancestors. */
  inheritedLevel: number | null;
  canRead: boolean;
}

/** Whom a visibility question is about: everything visible, or memberships only, at a least level. */
export interface VisibilityOptions {
  membershipOnly?: boolean;
  minLevel?: number;
}

/** The visible projects as a query of ids built from named parameters: `key` says what the statement's text depends on, `values` fill the parameters `query` names (each starts `visible.`). */
export interface VisibleProjectsShape {
  key: string;
  values: Record<string, unknown>;
  query(params: Record<string, never>): IdQuery;
}

/** The caller's access to projects and groups: 404 for what they may not see, 403 for what they may not do. */
export interface AccessService {
  projectAccess(user: Principal | null, project: Project): Promise<ProjectAccess>;
  groupAccess(user: Principal | null, group: Namespace): Promise<GroupAccess>;
  /** `permissions` for a page of projects: direct and group levels of the user, in one query. */
  projectPermissions(user: Principal, projects: readonly Project[]): Promise<Map<number, ProjectPermissions>>;
  /**
   * A project by id or path with the caller's access, or null; the same request's next `requireProject`
   * of it, and its next `lookUpForRequest` of it before that, read no more.
   */
  lookUpForRequest(user: Principal | null, idOrPath: string): Promise<ProjectAccess | null>;
  /** A project the caller can see, else `404 Project Not Found`; 403 below `minLevel`. */
  requireProject(user: Principal | null, idOrPath: string, minLevel?: number): Promise<ProjectAccess>;
  /** A group the caller can see, else `404 Group Not Found`; 403 below `minLevel`. */
  requireGroup(user: Principal | null, idOrPath: string, minLevel?: number): Promise<GroupAccess>;
  /**
   * Ids of the projects the user may see (or is a member of at `minLevel`), optionally among
   * `ids` or under a group's traversal path. Other plugins ask this instead of joining core's tables.
   */
  visibleProjectIds(
    user: Principal | null,
    options?: VisibilityOptions & { ids?: readonly number[]; underTraversalPath?: string; limit?: number },
  ): Promise<number[]>;
  /** The same projects as `visibleProjectIds`, as a query of ids for another plugin's `whereIn`: nothing is read until that query runs. */
  visibleProjectsQuery(user: Principal | null, options?: VisibilityOptions & { underTraversalPath?: string }): IdQuery;
  /**
   * `visibleProjectsQuery` for a statement another plugin compiles once per shape
   * (`prepareRows((p) => …)`): the user, the date and the group's path are parameters.
   */
  visibleProjectsShape(user: Principal | null, options?: VisibilityOptions & { underTraversalPath?: string }): VisibleProjectsShape;
  /** The users among `userIds` that GitLab lets take part in a project's work (assignees, reviewers): active and able to read the project, in the order given, each once. */
  activeReadersOf(projectId: number, userIds: readonly number[]): Promise<User[]>;
  /** Ids of the groups the user may see (or is a member of at `minLevel`), optionally among `ids` or under a traversal path. */
  visibleGroupIds(user: Principal | null, options?: VisibilityOptions & { ids?: readonly number[]; underTraversalPath?: string }): Promise<number[]>;
}

/** The profile fields a user fills in. */
export type UserProfile = Pick<User, 'bio' | 'location' | 'publicEmail' | 'websiteUrl' | 'organization' | 'jobTitle' | 'pronouns'>;

export interface NewUser {
  username: string;
  name: string;
  email: string;
  password?: string | null;
  admin?: boolean;
  external?: boolean;
  bot?: boolean;
  canCreateGroup?: boolean;
  projectsLimit?: number;
  note?: string | null;
  createdById?: number | null;
  confirmed?: boolean;
  profile?: Partial<UserProfile>;
  privateProfile?: boolean;
}

export type UserPatch = Partial<Omit<NewUser, 'createdById' | 'confirmed'>> & { state?: string };

/** An external identity given to a user by `POST`/`PUT /users` (`provider`, `extern_uid`, `group_id_for_saml`). */
export interface UserIdentityInput {
  provider: string;
  externUid: string;
  groupIdForSaml: number | null;
}

/**
 * What a plugin does with the identities of one provider: checks one before the user is
 * written (throwing GitLab's error), records it after, and removes it
 * (`DELETE /users/:id/identities/:provider`; false when the user had none).
 */
export interface UserIdentityHandler {
  provider: string;
  check(identity: UserIdentityInput, userId: number | null): Promise<void>;
  record(user: User, identity: UserIdentityInput): Promise<void>;
  remove(userId: number): Promise<boolean>;
}

/** Users and their personal namespaces. */
export interface UserService {
  /** Takes the identities of a provider that `POST`/`PUT /users` give and `DELETE /users/:id/identities/:provider` removes. */
  handleIdentities(handler: UserIdentityHandler): void;
  /** The handler of a provider's identities, if a plugin registered one. */
  identityHandler(provider: string): UserIdentityHandler | undefined;
  /** Adds fields to every user answer core presents (see `UserFieldExtension`). */
  extendFields(extension: UserFieldExtension): void;
  /** Runs the plugins' field extensions over the bodies about to be answered. */
  applyFieldExtensions(entries: readonly { user: User; body: Record<string, unknown> }[], viewer: Viewer): Promise<void>;
  findById(id: number): Promise<User | undefined>;
  /** The users with these ids that exist, in id order. */
  findByIds(ids: readonly number[]): Promise<User[]>;
  /** Case-insensitive. */
  findByUsername(username: string): Promise<User | undefined>;
  /** A numeric id or a username. */
  findByIdOrUsername(value: string): Promise<User | undefined>;
  /** The user whose primary email this is, case-insensitive. */
  findByEmail(email: string): Promise<User | undefined>;
  /** The users whose email is on this domain (`…@domain`, any case), in id order. */
  findByEmailDomain(domain: string): Promise<User[]>;
  create(input: NewUser): Promise<User>;
  update(id: number, patch: UserPatch): Promise<User>;
  /**
   * Removes a user, their personal namespace and projects, and their memberships and
   * tokens; answers the ids of the projects that went with the namespace.
   */
  remove(id: number): Promise<{ projectIds: number[] }>;
  /** Groups in which this user is the only owner. */
  soleOwnedGroups(id: number): Promise<number[]>;
}

/** What a membership belongs to: a project, or a group (`Namespace`). */
export interface MemberSource {
  type: 'Project' | 'Namespace';
  id: number;
}

export interface MemberGrant {
  userId: number;
  accessLevel: number;
  /** `YYYY-MM-DD`. */
  expiresAt?: string | null;
  createdById?: number | null;
}

/** Direct memberships; every change is announced (`coreEvents.memberAdded`, `memberUpdated`, `memberRemoved`). */
export interface MemberService {
  /** The user's own membership of the source, not an inherited one. */
  find(source: MemberSource, userId: number): Promise<Member | undefined>;
  add(source: MemberSource, grant: MemberGrant): Promise<Member>;
  update(member: Member, patch: { accessLevel?: number; expiresAt?: string | null }): Promise<Member>;
  remove(member: Member): Promise<void>;
  /**
   * GitLab's `higher_access_level_than_group`: a membership of `source` may not be below the
   * user's highest membership of a group above it (a project's group and its parents, a group's
   * parents). The refusal, `should be greater than or equal to Developer inherited membership
   * from group <name>`, or null.
   */
  belowInherited(source: MemberSource, userId: number, accessLevel: number): Promise<string | null>;
}

/** Deleting users with what they own, as `DELETE /users/:id` does; other plugins reach it for their own delete routes. */
export interface UserDeletion {
  /**
   * Removes the user (contributions go to the ghost user through `userDeleted`), and with
   * `hardDelete` the groups only they own; without it, a sole owner is kept: `'sole-owner'`.
   */
  remove(id: number, options: { hardDelete: boolean }): Promise<'removed' | 'sole-owner'>;
}

export interface NewToken {
  userId: number;
  name: string;
  scopes: readonly string[];
  description?: string | null;
  expiresAt?: string | null;
  /** Use this secret instead of a random one (the bootstrap root token). */
  secret?: string;
  previousTokenId?: number | null;
}

/** Personal access tokens: stored only as digests; the secret is shown once. */
export interface TokenService {
  /** Issues a token (inside `tx` when given); the secret is answered only here. */
  create(input: NewToken, tx?: Transaction): Promise<{ token: PersonalAccessToken; secret: string }>;
  findById(id: number): Promise<PersonalAccessToken | undefined>;
  findByDigest(digest: string): Promise<PersonalAccessToken | undefined>;
  revoke(id: number): Promise<void>;
  /** Records a use of the token. */
  touch(id: number): Promise<void>;
  /** Revokes the token and issues a successor with the same name and scopes. */
  rotate(token: PersonalAccessToken, expiresAt: string | null): Promise<{ token: PersonalAccessToken; secret: string }>;
  /** Revokes this token and every token rotated from it (GitLab's token family). */
  revokeFamily(token: Pick<PersonalAccessToken, 'id'>): Promise<void>;
}

export interface GroupInput {
  name?: string;
  path?: string;
  description?: string;
  visibilityLevel?: number;
  parentId?: number | null;
  settings?: Partial<GroupSettings>;
}

/** Groups: nested namespaces with path rules, visibility limits and an owner on create. */
export interface GroupService {
  /** The group (inside `tx` when given), or undefined. */
  findById(id: number, tx?: Transaction): Promise<Namespace | undefined>;
  create(input: GroupInput & { name: string; path: string }, creatorId: number): Promise<Namespace>;
  update(group: Namespace, input: GroupInput): Promise<Namespace>;
  /** Removes the group, its subgroups and projects and the memberships in them; answers what went. */
  remove(group: Namespace): Promise<{ projectIds: number[]; groupIds: number[] }>;
}

/**
 * Adds or overrides fields of a project representation (another plugin's data, such
 * as the repository's `empty_repo`). Synchronous: it may not cost a query per project.
 */
export type ProjectFieldExtension = (project: Project, body: Record<string, unknown>, view: 'basic' | 'full') => void;

export interface ProjectInput {
  name?: string;
  path?: string;
  description?: string;
  visibilityLevel?: number;
  defaultBranch?: string | null;
  repositoryStorage?: string;
  topics?: string[];
  archived?: boolean;
  settings?: Partial<ProjectSettings>;
}

/** Projects: names, paths and visibility within a namespace. */
export interface ProjectService {
  /** Project fields another plugin contributes to every representation. */
  readonly fieldExtensions: readonly ProjectFieldExtension[];
  extendFields(extension: ProjectFieldExtension): void;
  findById(id: number): Promise<Project | undefined>;
  create(namespace: Namespace, input: ProjectInput & { name: string; path: string }, creatorId: number): Promise<Project>;
  update(project: Project, input: ProjectInput): Promise<Project>;
  remove(projectId: number): Promise<void>;
  /** The project's settings with GitLab's defaults. */
  settingsOf(project: Pick<Project, 'settings'>): Readonly<ProjectSettings>;
}

export interface SettingDefinition<T = unknown> {
  key: string;
  /** A field from `f.*`: how the value is parsed from a `PUT`. */
  field: v.GenericSchema<unknown, T>;
  default: T;
  /** The plugin that defined it, for error messages. */
  owner: string;
  /**
   * Settings that follow from this one when it is set (an old setting and its newer form
   * kept in step); a key set in the same request wins over a derived value.
   */
  derive?: (value: T) => Record<string, unknown>;
}

/** Instance settings (`/application/settings`): core defines the common keys, other plugins add theirs. */
export interface SettingsService {
  define<T>(owner: string, key: string, field: v.GenericSchema<unknown, T>, fallback: T, options?: { derive?: (value: T) => Record<string, unknown> }): void;
  definitions(): SettingDefinition[];
  get(key: string): Promise<unknown>;
  all(): Promise<Record<string, unknown>>;
  /** Stores the values (and what they derive) in one statement. */
  set(given: Record<string, unknown>): Promise<void>;
}

export const coreAccessRef = createServiceRef<AccessService>('core.access');
export const coreUsersRef = createServiceRef<UserService>('core.users');
export const coreUserDeletionRef = createServiceRef<UserDeletion>('core.user-deletion');
export const coreTokensRef = createServiceRef<TokenService>('core.tokens');
export const coreGroupsRef = createServiceRef<GroupService>('core.groups');
export const coreProjectsRef = createServiceRef<ProjectService>('core.projects');
export const coreSettingsRef = createServiceRef<SettingsService>('core.settings');
export const coreMembersRef = createServiceRef<MemberService>('core.members');
