/** Users and their personal namespaces. */
import { conflict, patchFrom, validationFailed, type Database } from '@forgekit/kernel';
import { recordId, type Query } from '@forgekit/kernel/orm';
import type { NewUser, User, UserIdentityHandler, UserPatch, UserService } from '../contracts.js';
import { MemberEntity } from '../entities/member.js';
import { NamespaceEntity, type NamespaceRow } from '../entities/namespace.js';
import { ProjectEntity } from '../entities/project.js';
import { UserEntity, type UserRow } from '../entities/user.js';
import { addLengthErrors, USER_LENGTHS } from '../shared/length-rules.js';
import { pathError, RESERVED_TOP_LEVEL } from '../shared/path-rules.js';
import { hashPassword } from './password.js';
import type { UserFieldExtension } from './user-presenter.js';
import { usersQuery } from './user-query.js';

const MIN_PASSWORD = 8;
const EMAIL = /^[^@\s]+@[^@\s]+$/;

export function createUserService(database: Database): UserService {
  const fieldExtensions: UserFieldExtension[] = [];
  const identityHandlers = new Map<string, UserIdentityHandler>();
  const byId = database.prepareRows((p) => usersQuery(database).where('id', p.id));
  const byIds = database.prepareRows((p) => usersQuery(database).whereIn('id', p.ids).orderBy('id'));
  const findById = async (id: number) => (recordId(id) === null ? undefined : ((await byId.first({ id })) as User | undefined));
  const findByUsername = async (username: string) => (await database.row(usersQuery(database).whereIgnoringCase('username', username))) as User | undefined;
  /** Whether a row matches, in one `count(*)` over at most one row. */
  const exists = async (query: Query<any, any>) => (await database.count(query.limit(1))) > 0;

  async function assertAvailable(username: string | undefined, email: string | undefined, exceptId?: number) {
    if (email !== undefined) {
      const taken = await exists(
        database
          .table(UserEntity)
          .whereIgnoringCase('email', email)
          .whereNot('id', exceptId ?? 0),
      );
      if (taken) throw conflict('Email has already been taken');
    }
    if (username !== undefined) {
      const taken = await exists(
        database
          .table(UserEntity)
          .whereIgnoringCase('username', username)
          .whereNot('id', exceptId ?? 0),
      );
      // Any top-level namespace but the user's own: groups have no owner (a null that
      // `owner_id <> ?` alone would skip), other users' namespaces have theirs.
      const namespaces = database.table(NamespaceEntity).whereNull('parentId').whereIgnoringCase('path', username);
      if (exceptId !== undefined) namespaces.where((w) => w.whereNull('ownerId').orWhere('ownerId', '<>', exceptId));
      const namespaceTaken = await exists(namespaces);
      // GitLab's API answers 409 only for another user's username; a group's path fails the
      // user's `namespace_uniq` validation, which the API renders as a 400.
      if (taken) throw conflict('Username has already been taken');
      if (namespaceTaken) throw validationFailed({ username: ['has already been taken'] });
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
    const { publicEmail, websiteUrl, jobTitle, ...profile } = input.profile ?? {};
    addLengthErrors(errors, USER_LENGTHS, { ...input, ...profile, public_email: publicEmail, website_url: websiteUrl, job_title: jobTitle });
    if (Object.keys(errors).length > 0) throw validationFailed(errors);
  }

  return {
    handleIdentities(handler) {
      identityHandlers.set(handler.provider, handler);
    },
    identityHandler: (provider) => identityHandlers.get(provider),
    extendFields(extension) {
      fieldExtensions.push(extension);
    },
    async applyFieldExtensions(entries, viewer) {
      if (entries.length === 0) return;
      for (const extension of fieldExtensions) await extension(entries, viewer);
    },
    findById,
    findByUsername,
    async findByIds(ids) {
      const wanted = [...new Set(ids.filter((id) => recordId(id) !== null))];
      if (wanted.length === 0) return [];
      return (await byIds.all({ ids: wanted })) as User[];
    },
    findByEmail: async (email: string) => (await database.row(usersQuery(database).whereIgnoringCase('email', email))) as User | undefined,
    async findByEmailDomain(domain: string) {
      const suffix = `@${domain.toLowerCase()}`;
      const rows = (await database.rows(usersQuery(database).whereContains(['email'], suffix).orderBy('id'))) as User[];
      return rows.filter((user) => user.email.toLowerCase().endsWith(suffix));
    },
    async findByIdOrUsername(value: string) {
      return /^\d+$/.test(value) ? findById(Number(value)) : findByUsername(value);
    },

    async create(input: NewUser): Promise<User> {
      validate(input);
      await assertAvailable(input.username, input.email);
      const passwordHash = input.password ? await hashPassword(input.password) : null;
      const now = new Date();
      return database.transaction(async (tx) => {
        const id = await database.insert(
          UserEntity,
          {
            username: input.username,
            name: input.name,
            email: input.email,
            passwordHash,
            admin: input.admin ?? false,
            external: input.external ?? false,
            bot: input.bot ?? false,
            privateProfile: input.privateProfile ?? false,
            canCreateGroup: input.canCreateGroup ?? true,
            projectsLimit: input.projectsLimit ?? 100000,
            note: input.note ?? null,
            createdById: input.createdById ?? null,
            confirmedAt: input.confirmed === false ? null : now,
            bio: input.profile?.bio ?? '',
            location: input.profile?.location ?? '',
            publicEmail: input.profile?.publicEmail ?? null,
            websiteUrl: input.profile?.websiteUrl ?? '',
            organization: input.profile?.organization ?? '',
            jobTitle: input.profile?.jobTitle ?? '',
            pronouns: input.profile?.pronouns ?? null,
            createdAt: now,
            updatedAt: now,
          },
          { tx },
        );
        const namespaceId = await database.insert(
          NamespaceEntity,
          {
            name: input.name,
            path: input.username,
            kind: 'user',
            fullPath: input.username,
            fullName: input.name,
            traversalPath: '/',
            ownerId: id,
            visibilityLevel: 20,
            createdAt: now,
            updatedAt: now,
          },
          { tx },
        );
        await database.update(NamespaceEntity, { id: namespaceId }, { traversalPath: `/${namespaceId}/` }, { tx });
        await database.update(UserEntity, { id }, { namespaceId }, { tx });
        return (await database.row(usersQuery(database).where('id', id), { tx })) as User;
      });
    },

    async update(id: number, patch: UserPatch): Promise<User> {
      validate(patch);
      await assertAvailable(patch.username, patch.email, id);
      const changes: Partial<UserRow> = {
        ...patchFrom<UserRow, UserPatch>(patch, {
          username: 'username',
          name: 'name',
          email: 'email',
          admin: 'admin',
          external: 'external',
          canCreateGroup: 'canCreateGroup',
          projectsLimit: 'projectsLimit',
          note: 'note',
          state: 'state',
          privateProfile: 'privateProfile',
        }),
        updatedAt: new Date(),
      };
      if (patch.password) changes.passwordHash = await hashPassword(patch.password);
      for (const [key, value] of Object.entries(patch.profile ?? {})) if (value !== undefined) Object.assign(changes, { [key]: value });
      await database.transaction(async (tx) => {
        await database.update(UserEntity, { id }, changes, { tx });
        if (patch.username !== undefined || patch.name !== undefined) {
          const personal: Partial<NamespaceRow> = { updatedAt: new Date() };
          if (patch.username !== undefined) Object.assign(personal, { path: patch.username, fullPath: patch.username });
          if (patch.name !== undefined) Object.assign(personal, { name: patch.name, fullName: patch.name });
          await database.update(NamespaceEntity, { kind: 'user', ownerId: id }, personal, { tx });
        }
      });
      return (await findById(id))!;
    },

    async remove(id: number): Promise<{ projectIds: number[] }> {
      return database.transaction(async (tx) => {
        const personal = database
          .table(ProjectEntity, 'p')
          .join(NamespaceEntity, 'n', 'n.id', 'p.namespaceId')
          .where('n.kind', 'user')
          .where('n.ownerId', id)
          .select('p.id');
        const projectIds = (await database.rows(personal, { tx })).map((project) => project.id);
        if (projectIds.length > 0) {
          await database.delete(MemberEntity, { sourceType: 'Project', sourceId: { $in: projectIds } }, { tx });
          await database.delete(ProjectEntity, { id: { $in: projectIds } }, { tx });
        }
        await database.delete(NamespaceEntity, { kind: 'user', ownerId: id }, { tx });
        await database.delete(UserEntity, { id }, { tx });
        return { projectIds };
      });
    },

    async soleOwnedGroups(id: number): Promise<number[]> {
      const owned = await database.rows(database.from(MemberEntity).where({ userId: id, sourceType: 'Namespace', accessLevel: 50 }));
      const sole: number[] = [];
      for (const { sourceId } of owned) {
        const others = database.table(MemberEntity).where({ sourceType: 'Namespace', sourceId, accessLevel: 50 }).whereNot('userId', id);
        if (!(await exists(others))) sole.push(sourceId);
      }
      return sole;
    },
  };
}
