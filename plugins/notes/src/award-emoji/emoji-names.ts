/** Emoji names an award may take, from GitHub's gemoji list (the shortcodes GitLab's own list shares). */
import { gemoji } from 'gemoji';

// GitLab stores the thumbs by their long names; gemoji lists `+1`/`-1` first.
const ALIASES: Readonly<Record<string, string>> = { '+1': 'thumbsup', '-1': 'thumbsdown' };
const NAMES = new Set(gemoji.flatMap((entry) => entry.names));

/** The name an award is stored under, or null for a name that is no emoji. */
export function awardName(name: string): string | null {
  const normalized = ALIASES[name] ?? name;
  return NAMES.has(normalized) ? normalized : null;
}

/** The emoji name of a note body made of one `:name:` and nothing else, or null. */
export function awardOnlyName(body: string): string | null {
  const match = /^:([\w+-]+):$/.exec(body.trim());
  return match ? awardName(match[1]!) : null;
}
