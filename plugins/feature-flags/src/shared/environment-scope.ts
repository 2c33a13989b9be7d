/** Environment scopes of strategies: what they may contain and which environments they match. */
export const ENVIRONMENT_SCOPE_MESSAGE = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces";

export const validEnvironmentScope = (scope: string) => /^[a-zA-Z0-9_/${}. *-]+$/.test(scope);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** `*` matches everything, a `*` inside a scope is a wildcard, anything else matches exactly. */
export function scopeMatches(scope: string, environment: string): boolean {
  if (scope === '*' || scope === environment) return true;
  if (!scope.includes('*')) return false;
  const pattern = scope.split('*').map(escapeRegExp).join('.*');
  return new RegExp(`^${pattern}$`, 's').test(environment);
}
