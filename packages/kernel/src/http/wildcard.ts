/**
 * GitLab's `*` wildcards (protected branch names, environment scopes): `*` matches any
 * run of characters, `/` included; everything else matches itself. Matched without a
 * regular expression, in time linear in the text for each `*`, so no pattern a client
 * stores can make a match take long.
 */
export function wildcardMatches(pattern: string, text: string): boolean {
  if (!pattern.includes('*')) return pattern === text;
  const parts = pattern.split('*');
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (text.length < first.length + last.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  // The middle parts, in order, each as early as it fits between the fixed start and end.
  let at = first.length;
  const end = text.length - last.length;
  for (const part of parts.slice(1, -1)) {
    if (part === '') continue;
    const found = text.indexOf(part, at);
    if (found === -1 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}
