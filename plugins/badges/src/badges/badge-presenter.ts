/** GitLab's badge entities: `Badge` for kept badges, `BasicBadgeDetails` for a render preview. */
import type { BadgeRow } from '../entities/badge.js';
import { renderUrl, type PlaceholderValues } from './placeholders.js';

export interface RenderedUrls {
  link: string;
  image: string;
}

/** Both URLs with their placeholders replaced; as written when there is no project to take values from. */
export async function renderBoth(urls: { linkUrl: string; imageUrl: string }, values: PlaceholderValues | null): Promise<RenderedUrls> {
  if (!values) return { link: urls.linkUrl, image: urls.imageUrl };
  const [link, image] = await Promise.all([renderUrl(urls.linkUrl, values), renderUrl(urls.imageUrl, values)]);
  return { link, image };
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

/** `Badge`: the preview's fields, then `id` and `kind`. */
export function presentBadge(badge: BadgeRow, rendered: RenderedUrls) {
  return { ...presentPreview({ ...badge, name: badge.name ?? null }, rendered), id: badge.id, kind: badge.kind };
}
