/** Memberships other plugins grant and change (invitations, SAML links), announcing each change. */
import type { Database, EventBus } from '@forgekit/kernel';
import { recordId } from '@forgekit/kernel/orm';
import type { Member, MemberService, MemberSource } from '../contracts.js';
import { MemberEntity } from '../entities/member.js';
import { NamespaceEntity } from '../entities/namespace.js';
import { ProjectEntity } from '../entities/project.js';
import { traversalIds } from '../shared/traversal.js';
import { accessLevelName } from '../shared/levels.js';
import { coreEvents, type MemberEventPayload } from '../events.js';

export const memberEventPayload = (member: Member): MemberEventPayload => ({
  memberId: member.id,
  sourceType: member.sourceType,
  sourceId: member.sourceId,
  userId: member.userId,
  accessLevel: member.accessLevel,
  expiresAt: member.expiresAt,
});

export function createMemberService(database: Database, events: EventBus): MemberService {
  const byId = async (id: number) => (await database.row(database.from(MemberEntity).where('id', id))) as Member;
  const find = async (source: MemberSource, userId: number) =>
    recordId(userId) === null
      ? undefined
      : ((await database.row(database.from(MemberEntity).where({ sourceType: source.type, sourceId: source.id, userId }))) as Member | undefined);

  /** The groups whose members inherit the source: a project's group and its parents, a group's parents. */
  async function groupsAbove(source: MemberSource): Promise<number[]> {
    const namespaceId = source.type === 'Namespace' ? source.id : (await database.row(database.from(ProjectEntity).where('id', source.id)))?.namespaceId;
    const namespace = namespaceId === undefined ? undefined : await database.row(database.from(NamespaceEntity).where('id', namespaceId));
    if (namespace?.kind !== 'group') return [];
    const groups = traversalIds(namespace.traversalPath);
    return source.type === 'Project' ? groups : groups.filter((id) => id !== source.id);
  }

  return {
    find,
    async add(source, grant) {
      const now = new Date();
      const id = await database.insert(MemberEntity, {
        sourceType: source.type,
        sourceId: source.id,
        userId: grant.userId,
        accessLevel: grant.accessLevel,
        expiresAt: grant.expiresAt ?? null,
        createdById: grant.createdById ?? null,
        createdAt: now,
        updatedAt: now,
      });
      const member = await byId(id);
      await events.emit(coreEvents.memberAdded, memberEventPayload(member));
      return member;
    },
    async update(member, patch) {
      const changes = {
        ...(patch.accessLevel !== undefined ? { accessLevel: patch.accessLevel } : {}),
        ...(patch.expiresAt !== undefined ? { expiresAt: patch.expiresAt } : {}),
        updatedAt: new Date(),
      };
      await database.update(MemberEntity, { id: member.id }, changes);
      const updated = await byId(member.id);
      await events.emit(coreEvents.memberUpdated, memberEventPayload(updated));
      return updated;
    },
    async remove(member) {
      if ((await database.delete(MemberEntity, { id: member.id })) > 0) await events.emit(coreEvents.memberRemoved, memberEventPayload(member));
    },
    belowInherited: async (source, userId, accessLevel) => inheritedRefusal(database, await groupsAbove(source), userId, accessLevel),
  };
}

/**
 * `belowInherited` for a source whose groups above (`ancestorGroupIds`, as its traversal path gives
 * them) the caller already has: the member routes, which hold them for a whole list of users.
 */
export async function inheritedRefusal(database: Database, ancestorGroupIds: readonly number[], userId: number, accessLevel: number): Promise<string | null> {
  if (ancestorGroupIds.length === 0) return null;
  const held = await database.rows(
    database
      .from(MemberEntity)
      .where({ sourceType: 'Namespace', userId })
      .whereIn('sourceId', [...ancestorGroupIds]),
  );
  const highest = held.reduce<(typeof held)[number] | undefined>((top, member) => (member.accessLevel > (top?.accessLevel ?? -1) ? member : top), undefined);
  if (!highest || highest.accessLevel <= accessLevel) return null;
  const group = await database.row(database.from(NamespaceEntity).where('id', highest.sourceId));
  return `should be greater than or equal to ${accessLevelName(highest.accessLevel)} inherited membership from group ${group?.name ?? ''}`;
}
