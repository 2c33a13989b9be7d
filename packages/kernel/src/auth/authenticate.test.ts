import { describe, expect, it } from 'vitest';
import { ApiError } from '../http/errors.js';
import type { AuthMode } from '../http/route.js';
import { authenticate, type AuthInput } from './authenticate.js';
import type { Credential, IdentityProvider, Principal } from './identity.js';
import { requestMark } from './request-mark.js';

const person = (id: number, username: string, isAdmin = false): Principal => ({ id, username, name: username, isAdmin, external: false, state: 'active' });

const alice = person(1, 'alice');
const root = person(2, 'root', true);
const bob = person(3, 'bob');
const blocked = { ...person(4, 'mallory'), state: 'blocked' };

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const credentials: Record<string, Omit<Credential, 'revoked' | 'expiresAt'> & Partial<Credential>> = {
  'alice-api': { tokenId: 1, principal: alice, scopes: ['api'] },
  'alice-read': { tokenId: 2, principal: alice, scopes: ['read_api'] },
  'alice-user': { tokenId: 3, principal: alice, scopes: ['read_user'] },
  'alice-revoked': { tokenId: 4, principal: alice, scopes: ['api'], revoked: true },
  'alice-expired': { tokenId: 5, principal: alice, scopes: ['api'], expiresAt: day(-1) },
  'alice-today': { tokenId: 6, principal: alice, scopes: ['api'], expiresAt: day(0) },
  'alice-tomorrow': { tokenId: 7, principal: alice, scopes: ['api'], expiresAt: day(1) },
  'root-api': { tokenId: 8, principal: root, scopes: ['api'] },
  'root-sudo': { tokenId: 9, principal: root, scopes: ['api', 'sudo'] },
  'alice-sudo': { tokenId: 10, principal: alice, scopes: ['api', 'sudo'] },
  'blocked-api': { tokenId: 11, principal: blocked, scopes: ['api'] },
  'root-read-sudo': { tokenId: 12, principal: root, scopes: ['read_api', 'sudo'] },
  'root-only-sudo': { tokenId: 13, principal: root, scopes: ['sudo'] },
  'alice-marked': { tokenId: 14, principal: alice, scopes: ['api'], mark: 7 },
  'root-marked-sudo': { tokenId: 15, principal: root, scopes: ['api', 'sudo'], mark: 7 },
};

const identity: IdentityProvider = {
  async findCredential(secret) {
    const found = credentials[secret];
    return found ? { revoked: false, expiresAt: null, ...found } : null;
  },
  async findUser(idOrUsername) {
    return [alice, root, bob].find((user) => String(user.id) === idOrUsername || user.username === idOrUsername.toLowerCase()) ?? null;
  },
  denialReason: (principal) => (principal.state === 'blocked' ? 'Your account has been blocked.' : null),
};

interface Call {
  method?: string;
  headers?: Record<string, string>;
  params?: Record<string, unknown>;
  mode?: AuthMode;
  scopes?: string[] | 'handler';
}

function run({ method = 'GET', headers = {}, params = {}, mode = 'required', scopes }: Call) {
  const input: AuthInput = { method, header: (name) => headers[name.toLowerCase()], param: (name) => params[name] };
  return authenticate(mode, scopes, input, () => identity);
}

async function failure(call: Call): Promise<ApiError> {
  const error = await run(call).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

const UNAUTHORIZED = { message: '401 Unauthorized' };
const HIGHER = 'The request requires higher privileges than provided by the access token.';

describe('token sources', () => {
  it('reads the access_token param', async () => {
    expect((await run({ params: { access_token: 'alice-api' } })).user).toEqual(alice);
  });

  it('reads the private_token param', async () => {
    expect((await run({ params: { private_token: 'alice-api' } })).user).toEqual(alice);
  });

  it('reads the PRIVATE-TOKEN header', async () => {
    expect((await run({ headers: { 'private-token': 'alice-api' } })).user).toEqual(alice);
  });

  it('reads a Bearer header', async () => {
    expect((await run({ headers: { authorization: 'Bearer alice-api' } })).user).toEqual(alice);
  });

  it('prefers access_token over every other source', async () => {
    const result = await run({ params: { access_token: 'root-api', private_token: 'x' }, headers: { 'private-token': 'x', authorization: 'Bearer x' } });
    expect(result.user).toEqual(root);
  });

  it('prefers private_token over the headers', async () => {
    const result = await run({ params: { private_token: 'root-api' }, headers: { 'private-token': 'x', authorization: 'Bearer x' } });
    expect(result.user).toEqual(root);
  });

  it('prefers PRIVATE-TOKEN over Bearer', async () => {
    const result = await run({ headers: { 'private-token': 'root-api', authorization: 'Bearer x' } });
    expect(result.user).toEqual(root);
  });

  it('skips blank sources', async () => {
    const result = await run({ params: { access_token: '', private_token: '' }, headers: { 'private-token': '', authorization: 'Bearer root-api' } });
    expect(result.user).toEqual(root);
  });

  it('returns the credential it found', async () => {
    const result = await run({ params: { private_token: 'alice-api' } });
    expect(result.credential?.tokenId).toBe(1);
    expect(result.sudoer).toBeNull();
  });
});

describe('token validity', () => {
  it('answers an unknown token with a plain 401', async () => {
    const error = await failure({ params: { private_token: 'nope' } });
    expect([error.status, error.body]).toEqual([401, UNAUTHORIZED]);
  });

  it('answers a missing token on a required route with a plain 401', async () => {
    const error = await failure({});
    expect([error.status, error.body]).toEqual([401, UNAUTHORIZED]);
  });

  it('answers a revoked token with invalid_token', async () => {
    const error = await failure({ params: { private_token: 'alice-revoked' } });
    expect(error.status).toBe(401);
    expect(error.body).toEqual({ error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' });
    expect(error.headers['WWW-Authenticate']).toContain('error="invalid_token"');
  });

  it('answers an expired token with invalid_token', async () => {
    const error = await failure({ params: { private_token: 'alice-expired' } });
    expect(error.status).toBe(401);
    expect(error.body).toEqual({ error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' });
  });

  it('stops a token on its expiry day and accepts it the day before', async () => {
    expect((await failure({ params: { private_token: 'alice-today' } })).status).toBe(401);
    expect((await run({ params: { private_token: 'alice-tomorrow' } })).user).toEqual(alice);
  });

  it('checks a presented token even on optional routes', async () => {
    expect((await failure({ mode: 'optional', params: { private_token: 'alice-revoked' } })).body).toMatchObject({ error: 'invalid_token' });
    expect((await failure({ mode: 'optional', params: { private_token: 'nope' } })).body).toEqual(UNAUTHORIZED);
  });

  it('answers a denied user with 403 and the reason', async () => {
    const error = await failure({ params: { private_token: 'blocked-api' } });
    expect([error.status, error.body]).toEqual([403, { message: '403 Forbidden - Your account has been blocked.' }]);
  });
});

describe('scopes', () => {
  it('lets read_api through on GET and HEAD', async () => {
    expect((await run({ method: 'GET', params: { private_token: 'alice-read' } })).user).toEqual(alice);
    expect((await run({ method: 'HEAD', params: { private_token: 'alice-read' } })).user).toEqual(alice);
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('refuses read_api on %s with insufficient_scope', async (method) => {
    const error = await failure({ method, params: { private_token: 'alice-read' } });
    expect(error.status).toBe(403);
    expect(error.body).toEqual({ error: 'insufficient_scope', error_description: HIGHER, scope: 'api' });
    expect(error.headers['WWW-Authenticate']).toContain('scope="api"');
  });

  it('lists every scope that would work', async () => {
    const error = await failure({ method: 'GET', params: { private_token: 'alice-user' } });
    expect(error.body).toMatchObject({ scope: 'api read_api' });
  });

  it('accepts a route scope', async () => {
    expect((await run({ scopes: ['read_user'], params: { private_token: 'alice-user' } })).user).toEqual(alice);
    expect((await failure({ scopes: ['read_user'], method: 'POST', params: { private_token: 'alice-read' } })).body).toMatchObject({
      scope: 'api read_user',
    });
  });

  it('leaves the scope check to the route when it asks for it, still checking the token', async () => {
    const result = await run({ scopes: 'handler', method: 'POST', params: { private_token: 'alice-user' } });
    expect(result).toMatchObject({ user: alice, sudoer: null });
    expect(result.credential?.scopes).toEqual(['read_user']);
    expect((await failure({ method: 'POST', params: { private_token: 'alice-user' } })).body).toMatchObject({ error: 'insufficient_scope', scope: 'api' });
    expect((await failure({ scopes: 'handler', params: { private_token: 'alice-revoked' } })).body).toMatchObject({ error: 'invalid_token' });
    expect((await failure({ scopes: 'handler', params: { private_token: 'nope' } })).body).toEqual(UNAUTHORIZED);
    expect((await failure({ scopes: 'handler', params: { private_token: 'root-api', sudo: 'bob' } })).body).toMatchObject({
      error: 'insufficient_scope',
      scope: 'sudo',
    });
  });
});

describe('modes', () => {
  it('lets anonymous callers through optional routes', async () => {
    expect(await run({ mode: 'optional' })).toEqual({ user: null, credential: null, sudoer: null });
  });

  it('reads no token at all on none routes', async () => {
    expect(await run({ mode: 'none', params: { private_token: 'nope' } })).toEqual({ user: null, credential: null, sudoer: null });
  });

  it('answers anonymous callers of admin routes with 401', async () => {
    const error = await failure({ mode: 'admin' });
    expect([error.status, error.body]).toEqual([401, UNAUTHORIZED]);
  });

  it('answers non-admins on admin routes with 403', async () => {
    const error = await failure({ mode: 'admin', params: { private_token: 'alice-api' } });
    expect([error.status, error.body]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('lets admins through admin routes', async () => {
    expect((await run({ mode: 'admin', params: { private_token: 'root-api' } })).user).toEqual(root);
  });
});

describe('sudo', () => {
  it('refuses non-admins first', async () => {
    const error = await failure({ params: { private_token: 'alice-sudo', sudo: 'nobody' } });
    expect([error.status, error.body]).toEqual([403, { message: '403 Forbidden - Must be admin to use sudo' }]);
  });

  it('needs the sudo scope', async () => {
    const error = await failure({ params: { private_token: 'root-api', sudo: 'nobody' } });
    expect(error.status).toBe(403);
    expect(error.body).toEqual({ error: 'insufficient_scope', error_description: HIGHER, scope: 'sudo' });
  });

  it('answers an unknown user with 404', async () => {
    const error = await failure({ params: { private_token: 'root-sudo', sudo: 'nobody' } });
    expect([error.status, error.body]).toEqual([404, { message: "404 User with ID or username 'nobody' Not Found" }]);
  });

  it('runs as the target, remembering the admin', async () => {
    const result = await run({ params: { private_token: 'root-sudo', sudo: 'Bob' } });
    expect(result.user).toEqual(bob);
    expect(result.sudoer).toEqual(root);
    expect(result.credential?.tokenId).toBe(9);
  });

  it('reads the Sudo header and numeric ids', async () => {
    const result = await run({ headers: { 'private-token': 'root-sudo', sudo: '3' } });
    expect(result.user).toEqual(bob);
  });

  it('applies admin routes to the target', async () => {
    const error = await failure({ mode: 'admin', params: { private_token: 'root-sudo', sudo: 'bob' } });
    expect([error.status, error.body]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it("still needs the route's own scope: sudo adds no right to write", async () => {
    for (const token of ['root-read-sudo', 'root-only-sudo']) {
      for (const sudo of [{ headers: { 'private-token': token, sudo: 'root' } }, { params: { private_token: token, sudo: 'bob' } }]) {
        const error = await failure({ method: 'POST', ...sudo });
        expect([error.status, error.body]).toEqual([403, { error: 'insufficient_scope', error_description: HIGHER, scope: 'api' }]);
      }
    }
    const read = await failure({ method: 'GET', headers: { 'private-token': 'root-only-sudo', sudo: 'root' } });
    expect(read.body).toMatchObject({ error: 'insufficient_scope', scope: 'api read_api' });
  });

  it('lets a read_api token with sudo read as another user', async () => {
    const result = await run({ method: 'GET', headers: { 'private-token': 'root-read-sudo', sudo: 'bob' } });
    expect(result).toMatchObject({ user: bob, sudoer: root });
  });

  it('answers a sudo sent as an array or hash with 404, naming what was sent', async () => {
    const hash = await failure({ params: { private_token: 'root-sudo', sudo: { a: { a: null } } } });
    expect([hash.status, hash.body]).toEqual([404, { message: `404 User with ID or username '{"a":{"a":null}}' Not Found` }]);
    const list = await failure({ params: { private_token: 'root-sudo', sudo: ['bob'] } });
    expect(list.status).toBe(404);
  });

  it('ignores a blank sudo', async () => {
    const result = await run({ params: { private_token: 'alice-api', sudo: '' } });
    expect(result).toMatchObject({ user: alice, sudoer: null });
  });
});

describe('the change mark of a reading request', () => {
  it("is kept by the caller object of GET and HEAD requests, each request's own", async () => {
    for (const method of ['GET', 'HEAD']) {
      const { user } = await run({ method, headers: { 'private-token': 'alice-marked' } });
      expect(requestMark(user)).toBe(7);
      expect(requestMark(alice)).toBeUndefined();
    }
  });

  it('is not kept for a writing request, a sudo request, or a credential read without one', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(requestMark((await run({ method, headers: { 'private-token': 'alice-marked' } })).user)).toBeUndefined();
    }
    expect(requestMark((await run({ headers: { 'private-token': 'root-marked-sudo', sudo: 'bob' } })).user)).toBeUndefined();
    expect(requestMark((await run({ headers: { 'private-token': 'alice-api' } })).user)).toBeUndefined();
    expect(requestMark(null)).toBeUndefined();
  });
});
