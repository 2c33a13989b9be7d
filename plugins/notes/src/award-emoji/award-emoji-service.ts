/** Award emoji on noteables and notes, with GitLab's answers for names and duplicates. */
import { notFound, recordNotFound, unauthorized, type EventBus, type Principal } from '@forgekit/kernel';
import { noteEvents } from '../contracts.js';
import type { AwardableType, AwardEmojiRow } from '../entities/award-emoji.js';
import type { Awardable, AwardEmojiStore } from './award-emoji-store.js';
import { awardName } from './emoji-names.js';

/** GitLab answers a refused award as a 404 naming the model errors (a Ruby hash inspect). */
const refused = (errors: string) => notFound(`Award Emoji ${errors}`);

export function createAwardEmojiService(store: AwardEmojiStore, events: EventBus) {
  const emit = (event: (typeof noteEvents)['awarded'], award: AwardEmojiRow, userId: number) =>
    events.emit(event, {
      awardId: award.id,
      name: award.name,
      awardableType: award.awardableType,
      awardableId: award.awardableId,
      projectId: award.projectId,
      userId,
    });
  return {
    list: (awardable: Awardable, limit: number, offset: number) => store.list(awardable, limit, offset),
    count: (awardable: Awardable) => store.count(awardable),
    async find(awardable: Awardable, id: number): Promise<AwardEmojiRow> {
      const award = await store.find(awardable, id);
      if (!award) throw recordNotFound();
      return award;
    },
    /** Gives the award; a name that is no emoji, or one the user already gave, is refused. */
    async give(awardable: Awardable, projectId: number | null, userId: number, requested: string): Promise<AwardEmojiRow> {
      const name = await awardName(requested);
      if (!name) throw refused('{:name=>["is not a valid emoji name"]}');
      if (await store.findByUserAndName(awardable, userId, name)) throw refused('{:name=>["has already been taken"]}');
      const now = new Date();
      const row = { ...awardable, name, userId, projectId, createdAt: now, updatedAt: now };
      const award = { ...row, id: await store.insert(row) };
      await emit(noteEvents.awarded, award, userId);
      return award;
    },
    /** Only the user who gave it, or an administrator, takes an award back (GitLab answers others 401). */
    async take(awardable: Awardable, id: number, user: Principal): Promise<void> {
      const award = await store.find(awardable, id);
      if (!award) throw recordNotFound();
      if (award.userId !== user.id && !user.isAdmin) throw unauthorized();
      await store.remove(award.id);
      await emit(noteEvents.revoked, award, user.id);
    },
    removeAllOf: (awardableType: AwardableType, ids: readonly number[]) => store.removeAllOf(awardableType, ids),
    removeAllOfProject: (projectId: number) => store.removeAllOfProject(projectId),
    removeAllOfUser: (userId: number) => store.removeAllOfUser(userId),
    async votes(awardableType: AwardableType, ids: readonly number[]): Promise<Map<number, { upvotes: number; downvotes: number }>> {
      const votes = new Map<number, { upvotes: number; downvotes: number }>();
      if (ids.length === 0) return votes;
      for (const row of await store.countsByName(awardableType, ids, ['thumbsup', 'thumbsdown'])) {
        const entry = votes.get(row.awardableId) ?? { upvotes: 0, downvotes: 0 };
        if (row.name === 'thumbsup') entry.upvotes = row.count;
        else entry.downvotes = row.count;
        votes.set(row.awardableId, entry);
      }
      return votes;
    },
  };
}

export type AwardEmojiService = ReturnType<typeof createAwardEmojiService>;
