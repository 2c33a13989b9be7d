/** Users and their personal namespaces. */
import { conflict, validationFailed, type Database } from '@forgekit/kernel';
import { recordId } from '@forgekit/kernel/orm';
import { Member } from '../entities/member.js';
import { Namespace } from '../entities/namespace.js';
import { Project } from '../entities/project.js';
import { User, type UserRow } from '../entities/user.js';
import { addLengthErrors, USER_LENGTHS } from '../shared/length-rules.js';
import { pathError, RESERVED_TOP_LEVEL } from '../shared/path-rules.js';
import { hashPassword } from './password.js';
import type { UserFieldExtension, Viewer } from './user-presenter.js';

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
  profile?: Partial<Pick<UserRow, 'bio' | 'location' | 'public_email' | 'website_url' | 'organization' | 'job_title' | 'pronouns'>>;
  privateProfile?: boolean;
}

export type UserPatch = Partial<Omit<NewUser, 'createdById' | 'confirmed'>> & { state?: string };

const MIN_PASSWORD = 8;
const EMAIL = /^[^@\s]+@[^@\s]+$/;

export function createUserService(database: Database) {
  const fieldExtensions: UserFieldExtension[] = [];
  const byId = database.legacy.prepareRows(User, (p) => database.legacy.from(User).where('id', p.id));
  const findById = async (id: number): Promise<UserRow | undefined> => (recordId(id) === null ? undefined : byId.first({ id }));
  const findByUsername = (username: string): Promise<UserRow | undefined> =>
    database.legacy.row(User, database.legacy.from(User).whereRaw('lower(username) = ?', [username.toLowerCase()]));
  /** Whether a row matches, in one `count(*)` over at most one row. */
  const exists = async (query: ReturnType<Database['legacy']['table']>) => (await database.legacy.count(query.limit(1))) > 0;

  async function assertAvailable(username: string | undefined, email: string | undefined, exceptId?: number) {
    if (email !== undefined) {
      const taken = await exists(
        database.legacy
          .table(User)
          .whereRaw('lower(email) = ?', [email.toLowerCase()])
          .whereNot('id', exceptId ?? 0),
      );
      if (taken) throw conflict('Email has already been taken');
    }
    if (username !== undefined) {
      const taken = await exists(
        database.legacy
          .table(User)
          .whereRaw('lower(username) = ?', [username.toLowerCase()])
          .whereNot('id', exceptId ?? 0),
      );
      const namespaceTaken = await exists(
        database.legacy
          .table(Namespace)
          .whereNull('parent_id')
          .whereRaw('lower(path) = ?', [username.toLowerCase()])
          .whereNot('owner_id', exceptId ?? 0),
      );
      if (taken || namespaceTaken) throw conflict('Username has already been taken');
    }
  }

  function validate(input: UserPatch) {
    const errors: Record<string, string[]> = {};
    if (input.password !== undefined && input.password !== null && input.password.length < MIN_PASSWORD) {
      errors.password = [`is too short (minimum is ${MIN_PASSWORD} characters)`];
    }
    if (input.email !== undefined && !EMAIL.test(input.email)) errors.email = ['is invalid'];
    if (input.username !== undefined) {
      const problem = pathError(input.username) ?? (RESERVED_TOP_LEVEL.has(input.username.toLowerCase()) ? 'is a reserved name' : null);
      if (problem) errors.username = [problem];
    }
    if (input.name !== undefined && input.name.trim() === '') errors.name = ["can't be blank"];
    addLengthErrors(errors, USER_LENGTHS, { ...input, ...input.profile });
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
  }

  return {
    /** Adds fields to every user answer core presents (see `UserFieldExtension`). */
    extendFields(extension: UserFieldExtension) {
      fieldExtensions.push(extension);
    },
    /** Runs the plugins' field extensions over the bodies about to be answered. */
    async applyFieldExtensions(entries: readonly { user: UserRow; body: Record<string, unknown> }[], viewer: Viewer) {
      if (entries.length === 0) return;
      for (const extension of fieldExtensions) await extension(entries, viewer);
    },
    findById,
    findByUsername,
    /** The users with these ids that exist, in id order. */
    async findByIds(ids: readonly number[]): Promise<UserRow[]> {
      const wanted = [...new Set(ids.filter((id) => recordId(id) !== null))];
      if (wanted.length === 0) return [];
      return database.legacy.rows(User, database.legacy.from(User).whereIn('id', wanted).orderBy('id'));
    },
    /** A numeric id or a username. */
    async findByIdOrUsername(value: string) {
      return /^\d+$/.test(value) ? findById(Number(value)) : findByUsername(value);
    },

    async create(input: NewUser): Promise<UserRow> {
      validate(input);
      await assertAvailable(input.username, input.email);
      const passwordHash = input.password ? await hashPassword(input.password) : null;
      const now = new Date();
      return database.legacy.transaction(async (em) => {
        const id = await em.insert(User, {
          username: input.username,
          name: input.name,
          email: input.email,
          password_hash: passwordHash,
          admin: input.admin ?? false,
          external: input.external ?? false,
          bot: input.bot ?? false,
          private_profile: input.privateProfile ?? false,
          can_create_group: input.canCreateGroup ?? true,
          projects_limit: input.projectsLimit ?? 100000,
          note: input.note ?? null,
          created_by_id: input.createdById ?? null,
          confirmed_at: input.confirmed === false ? null : now,
          bio: input.profile?.bio ?? '',
          location: input.profile?.location ?? '',
          public_email: input.profile?.public_email ?? null,
          website_url: input.profile?.website_url ?? '',
          organization: input.profile?.organization ?? '',
          job_title: input.profile?.job_title ?? '',
          pronouns: input.profile?.pronouns ?? null,
          created_at: now,
          updated_at: now,
        });
        const namespaceId = await em.insert(Namespace, {
          name: input.name,
          path: input.username,
          kind: 'user',
          full_path: input.username,
          full_name: input.name,
          traversal_path: '/',
          owner_id: id,
          visibility_level: 20,
          created_at: now,
          updated_at: now,
        });
        await em.nativeUpdate(Namespace, { id: namespaceId }, { traversal_path: `/${namespaceId}/` });
        await em.nativeUpdate(User, { id }, { namespace_id: namespaceId });
        return (await database.legacy.row(User, database.legacy.from(User).where('id', id), { em }))!;
      });
    },

    async update(id: number, patch: UserPatch): Promise<UserRow> {
      validate(patch);
      await assertAvailable(patch.username, patch.email, id);
      const changes: Partial<UserRow> = { updated_at: new Date() };
      if (patch.username !== undefined) changes.username = patch.username;
      if (patch.name !== undefined) changes.name = patch.name;
      if (patch.email !== undefined) changes.email = patch.email;
      if (patch.password) changes.password_hash = await hashPassword(patch.password);
      if (patch.admin !== undefined) changes.admin = patch.admin;
      if (patch.external !== undefined) changes.external = patch.external;
      if (patch.canCreateGroup !== undefined) changes.can_create_group = patch.canCreateGroup;
      if (patch.projectsLimit !== undefined) changes.projects_limit = patch.projectsLimit;
      if (patch.note !== undefined) changes.note = patch.note;
      if (patch.state !== undefined) changes.state = patch.state;
      if (patch.privateProfile !== undefined) changes.private_profile = patch.privateProfile;
      for (const [key, value] of Object.entries(patch.profile ?? {})) if (value !== undefined) Object.assign(changes, { [key]: value });
      await database.legacy.transaction(async (em) => {
        await em.nativeUpdate(User, { id }, changes);
        if (patch.username !== undefined || patch.name !== undefined) {
          const ns: Record<string, unknown> = { updated_at: new Date() };
          if (patch.username !== undefined) Object.assign(ns, { path: patch.username, full_path: patch.username });
          if (patch.name !== undefined) Object.assign(ns, { name: patch.name, full_name: patch.name });
          await em.nativeUpdate(Namespace, { kind: 'user', owner_id: id }, ns);
        }
      });
      return (await findById(id))!;
    },

    /**
     * Removes a user, their personal namespace and projects, and their memberships and
     * tokens; returns the ids of the projects that went with the namespace.
     */
    async remove(id: number): Promise<{ projectIds: number[] }> {
      return database.legacy.transaction(async (em) => {
        const projects = await database.legacy.rows(
          Project,
          database.legacy.table(Project, 'p').join('namespaces as n', 'n.id', 'p.namespace_id').where('n.kind', 'user').where('n.owner_id', id).select('p.id'),
          { em },
        );
        const projectIds = projects.map((project) => project.id);
        if (projectIds.length > 0) {
          await em.nativeDelete(Member, { source_type: 'Project', source_id: { $in: projectIds } });
          await em.nativeDelete(Project, { id: { $in: projectIds } });
        }
        await em.nativeDelete(Namespace, { kind: 'user', owner_id: id });
        await em.nativeDelete(User, { id });
        return { projectIds };
      });
    },

    /** Groups in which this user is the only owner. */
    async soleOwnedGroups(id: number): Promise<number[]> {
      const owned = await database.legacy.rows(Member, database.legacy.from(Member).where({ user_id: id, source_type: 'Namespace', access_level: 50 }));
      const sole: number[] = [];
      for (const { source_id } of owned) {
        const others = database.legacy.table(Member).where({ source_type: 'Namespace', source_id, access_level: 50 }).whereNot('user_id', id);
        if (!(await exists(others))) sole.push(source_id);
      }
      return sole;
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
