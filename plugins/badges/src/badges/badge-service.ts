/** GitLab's badge rules: URLs stripped and validated, a source's badges oldest first, conditional deletes. */
import { checkUnmodifiedSince, recordNotFound, validationFailed } from '@forgekit/kernel';
import type { BadgeKind, BadgeRow } from '../entities/badge.js';
import type { BadgeScope, BadgeStore } from './badge-store.js';
import { badgeErrors, type BadgeFields } from './url-rules.js';

/** What a create or update sent; undefined is "not sent", null is "sent empty". */
export interface BadgeInput {
  link_url?: string | null;
  image_url?: string | null;
  name?: string | null;
}

/** GitLab's validator strips the URLs it checks, and keeps them stripped. */
const stripped = (url: string | null | undefined) => (url === null || url === undefined ? null : url.trim());

function validated(fields: BadgeFields): BadgeFields & { linkUrl: string; imageUrl: string } {
  const errors = badgeErrors(fields);
  if (errors) throw validationFailed(errors);
  return fields as BadgeFields & { linkUrl: string; imageUrl: string };
}

export function createBadgeService(store: BadgeStore) {
  return {
    list: (scope: BadgeScope, name: string | undefined, limit: number, offset: number) => store.list(scope, name, limit, offset),
    count: (scope: BadgeScope, name: string | undefined) => store.count(scope, name),

    /** A badge the scope shows, else GitLab's record-not-found 404. */
    async find(scope: BadgeScope, id: number): Promise<BadgeRow> {
      const badge = await store.find(scope, id);
      if (!badge) throw recordNotFound();
      return badge;
    },

    /** The badge a render request describes, validated but not kept (`name` is null). */
    build(input: BadgeInput): BadgeFields & { linkUrl: string; imageUrl: string } {
      return validated({ linkUrl: stripped(input.link_url), imageUrl: stripped(input.image_url), name: null });
    },

    async create(kind: BadgeKind, ownerId: number, input: BadgeInput): Promise<BadgeRow> {
      const fields = validated({ linkUrl: stripped(input.link_url), imageUrl: stripped(input.image_url), name: input.name ?? null });
      const now = new Date();
      return store.insert({ kind, ownerId, ...fields, createdAt: now, updatedAt: now });
    },

    /** Changes what was sent; fields not sent keep their value. */
    async update(badge: BadgeRow, input: BadgeInput): Promise<BadgeRow> {
      const fields = validated({
        linkUrl: input.link_url === undefined ? badge.linkUrl : stripped(input.link_url),
        imageUrl: input.image_url === undefined ? badge.imageUrl : stripped(input.image_url),
        name: input.name === undefined ? (badge.name ?? null) : input.name,
      });
      const changes = { ...fields, updatedAt: new Date() };
      await store.update(badge.id, changes);
      return { ...badge, ...changes };
    },

    /** Deletes the badge unless `If-Unmodified-Since` is older than its last change (412). */
    async remove(badge: BadgeRow, unmodifiedSince: string | undefined): Promise<void> {
      checkUnmodifiedSince(unmodifiedSince, badge.updatedAt);
      await store.remove(badge.id);
    },

    removeAllOf: (kind: BadgeKind, ownerId: number) => store.removeAllOf(kind, ownerId),
  };
}

export type BadgeService = ReturnType<typeof createBadgeService>;
