import { describe, expect, it } from 'vitest';
import { scopeMatches, validEnvironmentScope } from './environment-scope.js';

describe('environment scopes', () => {
  it('allows letters, digits, - _ / $ { } . * and spaces', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a scope with a literal CI variable reference
    for (const scope of ['*', 'production', 'review/*', 'review/${CI_COMMIT_REF_SLUG}', 'a.b c-d_e']) expect(validEnvironmentScope(scope)).toBe(true);
    for (const scope of ['', 'bad%scope', 'a?b', 'é']) expect(validEnvironmentScope(scope)).toBe(false);
  });

  it('matches `*` everywhere, wildcards inside a scope, exact names otherwise', () => {
    expect(scopeMatches('*', 'anything')).toBe(true);
    expect(scopeMatches('production', 'production')).toBe(true);
    expect(scopeMatches('production', 'Production')).toBe(false);
    expect(scopeMatches('production', 'production-eu')).toBe(false);
    expect(scopeMatches('review/*', 'review/patch-1')).toBe(true);
    expect(scopeMatches('review/*', 'review/')).toBe(true);
    expect(scopeMatches('review/*', 'staging/review/x')).toBe(false);
    expect(scopeMatches('*-eu', 'prod-eu')).toBe(true);
    expect(scopeMatches('a.b', 'axb')).toBe(false);
    expect(scopeMatches('a_b*', 'axb1')).toBe(false);
  });
});
