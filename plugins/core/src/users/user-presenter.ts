/** GitLab's user entities, fields in declaration order. */
import type { User } from '../contracts.js';

/** What GitLab's UserBasic shows of a user. */
export type UserBasicSource = Pick<User, 'id' | 'username' | 'publicEmail' | 'name' | 'state' | 'lockVersion'>;

/** Who is looking: profile fields of a private profile show only to its owner and admins. */
export type Viewer = { id: number; isAdmin: boolean } | null;

/**
 * Fields another plugin contributes to the user answers core presents (`followers`,
 * `following`, `is_followed` …), for several users at once. It may set or change the
 * body's fields; core calls it before it answers.
 */
export type UserFieldExtension = (entries: readonly { user: User; body: Record<string, unknown> }[], viewer: Viewer) => Promise<void>;

export function userBasic(user: UserBasicSource, externalUrl: string) {
  return {
    id: user.id,
    username: user.username,
    public_email: user.publicEmail ?? null,
    name: user.name,
    state: user.state,
    locked: false,
    avatar_url: null,
    web_url: `${externalUrl}/${user.username}`,
  };
}

export function userDetail(user: User, externalUrl: string, viewer: Viewer) {
  const profileReadable = !user.privateProfile || (!!viewer && (viewer.isAdmin || viewer.id === user.id));
  const body: Record<string, unknown> = userBasic(user, externalUrl);
  if (profileReadable) body.created_at = user.createdAt.toISOString();
  Object.assign(body, {
    bio: user.bio,
    location: user.location,
    skype: '',
    linkedin: '',
    twitter: '',
    discord: '',
    website_url: user.websiteUrl,
    organization: user.organization,
    job_title: user.jobTitle,
    pronouns: user.pronouns,
    bot: user.bot,
    work_information: null,
  });
  if (profileReadable) Object.assign(body, { followers: 0, following: 0 });
  if (viewer) body.is_followed = false;
  body.local_time = null;
  return body;
}

/** `GET /user`: the caller's own view. */
export function userPublic(user: User, externalUrl: string) {
  return {
    ...userDetail(user, externalUrl, { id: user.id, isAdmin: user.admin }),
    last_sign_in_at: null,
    confirmed_at: user.confirmedAt?.toISOString() ?? null,
    last_activity_on: user.lastActivityOn,
    email: user.email,
    theme_id: 1,
    color_scheme_id: 1,
    projects_limit: user.projectsLimit,
    current_sign_in_at: null,
    identities: [],
    can_create_group: user.canCreateGroup,
    can_create_project: user.projectsLimit > 0 && !user.external,
    two_factor_enabled: false,
    external: user.external,
    private_profile: user.privateProfile,
    commit_email: user.email,
  };
}

export function userWithAdmin(user: User, externalUrl: string, createdBy: User | null) {
  return {
    ...userPublic(user, externalUrl),
    is_admin: user.admin,
    note: user.note,
    namespace_id: user.namespaceId,
    created_by: createdBy ? userBasic(createdBy, externalUrl) : null,
    current_sign_in_ip: null,
    last_sign_in_ip: null,
  };
}
