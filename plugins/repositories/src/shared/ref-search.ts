/** GitLab's branch and tag `search`: `^abc` prefix, `abc$` suffix, otherwise a substring; case-insensitive. */
export function matchesSearch(name: string, search: string | null | undefined): boolean {
  if (!search) return true;
  const lower = name.toLowerCase();
  let term = search.toLowerCase();
  const prefix = term.startsWith('^');
  const suffix = term.endsWith('$');
  if (prefix) term = term.slice(1);
  if (suffix) term = term.slice(0, -1);
  if (prefix && suffix) return lower === term;
  if (prefix) return lower.startsWith(term);
  if (suffix) return lower.endsWith(term);
  return lower.includes(term);
}
