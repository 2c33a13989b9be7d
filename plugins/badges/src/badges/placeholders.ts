/**
 * Badge URL placeholders: `%{name}` (or its escaped form `%25%7Bname%7D`) for the names below,
 * each replaced from real data in both URLs. A placeholder with no value (an empty repository's
 * `%{commit_sha}`, say) stays as it is, as GitLab leaves it; unknown names are left alone.
 */

export const PLACEHOLDERS = [
  'project_path',
  'project_title',
  'project_name',
  'project_id',
  'project_namespace',
  'group_name',
  'service_server',
  'service_pages_domain',
  'default_branch',
  'commit_sha',
  'latest_tag',
] as const;

export type PlaceholderName = (typeof PLACEHOLDERS)[number];

/** GitLab's own spellings, accepted beside ours. */
const ALIASES: Readonly<Record<string, PlaceholderName>> = { gitlab_server: 'service_server', gitlab_pages_domain: 'service_pages_domain' };

const NAMES = [...PLACEHOLDERS, ...Object.keys(ALIASES)].sort((a, b) => b.length - a.length);
const SOURCE = `%(?:\\{|25%7B)(${NAMES.join('|')})(?:\\}|%7D)`;
const ANY = new RegExp(SOURCE);

const canonical = (name: string): PlaceholderName => ALIASES[name] ?? (name as PlaceholderName);

/** A placeholder's value for one badge source, or null when it has none. */
export type PlaceholderValues = (name: PlaceholderName) => Promise<string | null>;

export const hasPlaceholders = (url: string) => ANY.test(url);

/** Characters a value keeps as they are in a URL (RFC 3986's unreserved and sub-delims, `:`, `@` and `/`); the rest is percent-encoded. */
const ESCAPED = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/gu;
const escapeValue = (value: string) =>
  value.replace(ESCAPED, (char) => [...Buffer.from(char)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''));

/** Every placeholder match; `matchAll` works on a copy of the pattern, so its position never leaks. */
const EVERY = new RegExp(SOURCE, 'g');

/** A URL cut at its placeholders: literal text, then each placeholder as written and its name. */
interface Template {
  literals: string[];
  placeholders: { written: string; name: PlaceholderName }[];
}

/** Templates by URL: a source's badges are rendered on every read, with the same few URLs. */
const templates = new Map<string, Template>();
const MAX_TEMPLATES = 2000;

function templateOf(url: string): Template {
  let template = templates.get(url);
  if (template) return template;
  template = { literals: [], placeholders: [] };
  let from = 0;
  for (const match of url.matchAll(EVERY)) {
    template.literals.push(url.slice(from, match.index!));
    template.placeholders.push({ written: match[0], name: canonical(match[1]!) });
    from = match.index! + match[0].length;
  }
  template.literals.push(url.slice(from));
  if (templates.size >= MAX_TEMPLATES) templates.clear();
  templates.set(url, template);
  return template;
}

/** The placeholders the URLs name, each once. */
export function placeholdersIn(urls: readonly string[]): PlaceholderName[] {
  const names = new Set<PlaceholderName>();
  for (const url of urls) {
    if (!url.includes('%')) continue;
    for (const { name } of templateOf(url).placeholders) names.add(name);
  }
  return [...names];
}

export type ResolvedPlaceholders = ReadonlyMap<PlaceholderName, string | null>;

/** The values of the placeholders the URLs name, looked up together, each escaped for a URL (null: no value). */
export async function resolvePlaceholders(urls: readonly string[], values: PlaceholderValues): Promise<ResolvedPlaceholders> {
  const names = placeholdersIn(urls);
  return new Map(
    await Promise.all(
      names.map(async (name) => {
        const value = await values(name);
        return [name, value === null || value === undefined ? null : escapeValue(value)] as const;
      }),
    ),
  );
}

/** The URL with each known placeholder replaced by its value (as `resolvePlaceholders` escaped it); the rest of the URL is kept as written. */
export function replacePlaceholders(url: string, resolved: ResolvedPlaceholders): string {
  if (!url.includes('%')) return url;
  const { literals, placeholders } = templateOf(url);
  let text = literals[0]!;
  for (let i = 0; i < placeholders.length; i++) {
    const { written, name } = placeholders[i]!;
    text += (resolved.get(name) ?? written) + literals[i + 1]!;
  }
  return text;
}

/** One URL rendered: its placeholders looked up and replaced. */
export async function renderUrl(url: string, values: PlaceholderValues): Promise<string> {
  return replacePlaceholders(url, await resolvePlaceholders([url], values));
}

/** The URL with every placeholder replaced by a plain word, to check what it will be once rendered. */
export const withoutPlaceholders = (url: string) => url.replace(EVERY, 'placeholder');

/** Runs each placeholder's lookup at most once for the values it serves (one request's badges). */
export function memoized(compute: PlaceholderValues): PlaceholderValues {
  const known = new Map<PlaceholderName, Promise<string | null>>();
  return (name) => {
    let value = known.get(name);
    if (!value) known.set(name, (value = compute(name)));
    return value;
  };
}
