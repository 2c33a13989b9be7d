/** Emoji names an award may take, from GitHub's gemoji list (the shortcodes GitLab's own list shares). */

// GitLab stores the thumbs by their long names; gemoji lists `+1`/`-1` first.
const ALIASES: Readonly<Record<string, string>> = { '+1': 'thumbsup', '-1': 'thumbsdown' };

// gemoji's data (descriptions, tags, characters) holds about 7 MB in memory: it is loaded with
// the first award, and only its names are kept.
let names: Promise<ReadonlySet<string>> | undefined;
const emojiNames = () => (names ??= import('gemoji').then(({ gemoji }) => new Set(gemoji.flatMap((entry) => entry.names))));

/** The name an award is stored under, or null for a name that is no emoji. */
export async function awardName(name: string): Promise<string | null> {
  const normalized = ALIASES[name] ?? name;
  return (await emojiNames()).has(normalized) ? normalized : null;
}

/** The emoji name of a note body made of one `:name:` and nothing else, or null. */
export async function awardOnlyName(body: string): Promise<string | null> {
  const match = /^:([\w+-]+):$/.exec(body.trim());
  return match ? awardName(match[1]!) : null;
}
