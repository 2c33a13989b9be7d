/** GitLab's badge entities: `Badge` for kept badges, `BasicBadgeDetails` for a render preview. */
import type { BadgeRow } from '../entities/badge.js';
import { replacePlaceholders, resolvePlaceholders, type PlaceholderValues } from './placeholders.js';

export interface RenderedUrls {
  link: string;
  image: string;
}

type BadgeUrls = { linkUrl: string; imageUrl: string };

/**
 * Each badge's URLs with their placeholders replaced, every value looked up once for all of
 * them; the URLs as written when there is no project to take values from.
 */
export async function renderAll(badges: readonly BadgeUrls[], values: PlaceholderValues | null): Promise<RenderedUrls[]> {
  if (!values) return badges.map((badge) => ({ link: badge.linkUrl, image: badge.imageUrl }));
  const resolved = await resolvePlaceholders(
    badges.flatMap((badge) => [badge.linkUrl, badge.imageUrl]),
    values,
  );
  return badges.map((badge) => ({ link: replacePlaceholders(badge.linkUrl, resolved), image: replacePlaceholders(badge.imageUrl, resolved) }));
}

/** One badge's URLs rendered. */
export async function renderBoth(urls: BadgeUrls, values: PlaceholderValues | null): Promise<RenderedUrls> {
  return (await renderAll([urls], values))[0]!;
}

/** `BasicBadgeDetails`: what a render request answers. */
export function presentPreview(badge: { name: string | null; linkUrl: string; imageUrl: string }, rendered: RenderedUrls) {
  return {
    name: badge.name,
    link_url: badge.linkUrl,
    image_url: badge.imageUrl,
    rendered_link_url: rendered.link,
    rendered_image_url: rendered.image,
  };
}

/** `Badge`: the preview's fields (as `presentPreview` writes them), then `id` and `kind`. */
export function presentBadge(badge: BadgeRow, rendered: RenderedUrls) {
  return {
    name: badge.name ?? null,
    link_url: badge.linkUrl,
    image_url: badge.imageUrl,
    rendered_link_url: rendered.link,
    rendered_image_url: rendered.image,
    id: badge.id,
    kind: badge.kind,
  };
}
