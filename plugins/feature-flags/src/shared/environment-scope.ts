/** Environment scopes of strategies: what they may contain and which environments they match. */
import { wildcardMatches } from '@forgekit/kernel';

export const ENVIRONMENT_SCOPE_MESSAGE = "can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces";

export const validEnvironmentScope = (scope: string) => /^[a-zA-Z0-9_/${}. *-]+$/.test(scope);

/** `*` matches everything, a `*` inside a scope is a wildcard, anything else matches exactly. */
export const scopeMatches = (scope: string, environment: string): boolean => wildcardMatches(scope, environment);
