/** The kernel's auth rules: token sources, validity, scopes, admin routes and sudo. */
import { ApiError, forbidden, malformedRequest, notFound, unauthorized } from '../http/errors.js';
import { utf8 } from '../http/well-formed.js';
import type { AuthMode } from '../http/route.js';
import type { Credential, IdentityProvider, Principal } from './identity.js';
import { today } from '../text/today.js';
import { markRequest } from './request-mark.js';

export interface AuthInput {
  method: string;
  /** Accept `Authorization: Basic` with the token as the password. */
  basic?: boolean;
  header(name: string): string | undefined;
  param(name: string): unknown;
}

export interface AuthResult {
  user: Principal | null;
  credential: Credential | null;
  /** The admin behind a sudo request. */
  sudoer: Principal | null;
}

const ANONYMOUS: AuthResult = Object.freeze({ user: null, credential: null, sudoer: null });

function invalidToken(description: string) {
  return new ApiError(
    401,
    { error: 'invalid_token', error_description: description },
    {
      'WWW-Authenticate': `Bearer realm="service", error="invalid_token", error_description="${description}"`,
    },
  );
}

export function insufficientScope(scopes: readonly string[]) {
  const description = 'The request requires higher privileges than provided by the access token.';
  return new ApiError(
    403,
    { error: 'insufficient_scope', error_description: description, scope: scopes.join(' ') },
    {
      'WWW-Authenticate': `Bearer realm="service", error="insufficient_scope", error_description="${description}", scope="${scopes.join(' ')}"`,
    },
  );
}

/** The presented secret, in GitLab's order of precedence. */
export function presentedToken(input: AuthInput): string | undefined {
  const fromParam = (name: string) => {
    const value = input.param(name);
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const bearer = /^Bearer\s+(.+)$/i.exec(input.header('authorization') ?? '')?.[1]?.trim();
  return (
    fromParam('access_token') ??
    fromParam('private_token') ??
    (input.header('private-token') || undefined) ??
    bearer ??
    (input.basic ? basicPassword(input) : undefined)
  );
}

/** The password of `Authorization: Basic` (any username, the token as password). */
function basicPassword(input: AuthInput): string | undefined {
  const encoded = /^Basic\s+(.+)$/i.exec(input.header('authorization') ?? '')?.[1];
  if (!encoded) return undefined;
  const decoded = utf8(Buffer.from(encoded, 'base64'));
  if (decoded.includes('\u0000')) throw malformedRequest();
  const colon = decoded.indexOf(':');
  return colon >= 0 && colon < decoded.length - 1 ? decoded.slice(colon + 1) : undefined;
}

export function scopesFor(method: string, extra: readonly string[] = []): string[] {
  const read = method === 'GET' || method === 'HEAD';
  return read ? ['api', 'read_api', ...extra] : ['api', ...extra];
}

export async function authenticate(
  mode: AuthMode,
  routeScopes: readonly string[] | 'handler' | undefined,
  input: AuthInput,
  identityProvider: () => IdentityProvider,
): Promise<AuthResult> {
  if (mode === 'none') return ANONYMOUS;
  const secret = presentedToken(input);
  if (!secret) {
    if (mode === 'optional') return ANONYMOUS;
    throw unauthorized();
  }
  const identity = identityProvider();
  const credential = await identity.findCredential(secret);
  if (!credential) throw unauthorized();
  if (credential.revoked) throw invalidToken('Token was revoked. You have to re-authorize from the user.');
  if (credential.expiresAt && credential.expiresAt <= today()) {
    throw invalidToken('Token is expired. You can either do re-authorization or token refresh.');
  }
  const denial = identity.denialReason(credential.principal);
  if (denial) throw forbidden(denial);

  // The route's scopes hold for sudo requests too: `sudo` only adds the right to act as another user.
  if (routeScopes !== 'handler') {
    const allowed = scopesFor(input.method, routeScopes);
    if (!allowed.some((scope) => credential.scopes.includes(scope))) throw insufficientScope(allowed);
  }

  const sudo = input.param('sudo') ?? input.header('sudo');
  if (sudo !== undefined && sudo !== null && sudo !== '') {
    if (!credential.principal.isAdmin) throw forbidden('Must be admin to use sudo');
    if (!credential.scopes.includes('sudo')) throw insufficientScope(['sudo']);
    // A user is named by text; an array or hash names nobody.
    const name = typeof sudo === 'string' || typeof sudo === 'number' ? String(sudo) : JSON.stringify(sudo);
    const target = typeof sudo === 'object' ? null : await identity.findUser(name);
    if (!target) throw notFound(`User with ID or username '${name}'`);
    return checkAdmin(mode, { user: target, credential, sudoer: credential.principal });
  }
  const result = checkAdmin(mode, { user: credential.principal, credential, sudoer: null });
  const reads = input.method === 'GET' || input.method === 'HEAD';
  if (reads && credential.mark !== undefined) markRequest(result.user!, credential.mark);
  return result;
}

function checkAdmin(mode: AuthMode, result: AuthResult): AuthResult {
  if (mode === 'admin' && !result.user?.isAdmin) throw forbidden();
  // Each request gets a caller object of its own, so a service may keep what it learnt about
  // the caller for the rest of the request (keyed on the object) whatever the identity provider caches.
  return result.user ? { ...result, user: { ...result.user } } : result;
}
