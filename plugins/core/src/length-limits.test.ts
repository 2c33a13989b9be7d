import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyEntity } from '@forgekit/kernel/orm';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { NamespaceEntity } from './entities/namespace.js';
import { PersonalAccessTokenEntity } from './entities/personal-access-token.js';
import { ProjectEntity } from './entities/project.js';
import { UserEntity } from './entities/user.js';

const rails = (max: number) => `is too long (maximum is ${max} characters)`;
const letters = (length: number) => 'a'.repeat(length);
/** Characters outside the Basic Multilingual Plane: each counts once, as GitLab counts them. */
const wide = (length: number) => '😀'.repeat(length);

let app: TestApp;
let serial = 0;
const next = () => ++serial;

beforeAll(async () => {
  app = await createTestApp();
});
afterAll(() => app?.close());

const count = (entity: AnyEntity) => app.kernel.database.count(app.kernel.database.table(entity));

interface Limit {
  field: string;
  max: number;
  /** Request fields carrying a value of `length` characters. */
  body: (length: number) => Record<string, unknown>;
  /** The field as the API shows it afterwards; omitted for what it never shows. */
  shown?: (length: number) => unknown;
}

/** A field sent as it is and shown as it was sent. */
const limit = (field: string, max: number, make: (length: number) => string = letters): Limit => ({
  field,
  max,
  body: (length) => ({ [field]: make(length) }),
  shown: make,
});
/** A value of exactly `length` characters no other test uses: a letter, a serial number, filler, then `suffix`. */
function unique(length: number, suffix = '') {
  const n = String(next());
  return `x${n}${letters(length - 1 - n.length - suffix.length)}${suffix}`;
}

describe('users', () => {
  const LIMITS: Limit[] = [
    limit('name', 255),
    { field: 'username', max: 255, body: (length) => ({ username: unique(length) }) },
    { field: 'email', max: 255, body: (length) => ({ email: unique(length, '@example.com') }) },
    { field: 'password', max: 128, body: (length) => ({ password: letters(length) }) },
    limit('bio', 255, wide),
    limit('location', 500, wide),
    limit('website_url', 500),
    limit('organization', 500, wide),
    limit('job_title', 200, wide),
    limit('pronouns', 50, wide),
    limit('public_email', 255),
    limit('note', 1000, wide),
  ];
  const fresh = () => {
    const n = next();
    return { username: `length-${n}`, name: `Length ${n}`, email: `length-${n}@example.com`, password: 'secret-password' };
  };

  describe.each(LIMITS)('$field (at most $max)', ({ field, max, body, shown }) => {
    it('keeps a value at the limit whole', async () => {
      const res = await app.post('/api/v4/users', { ...fresh(), ...body(max) }, { token: 'admin' });
      expect(res.status).toBe(201);
      if (shown) expect((await app.get(`/api/v4/users/${res.body.id}`, { token: 'admin' })).body[field]).toBe(shown(max));
    });

    it('refuses a value one character over it and stores nothing', async () => {
      const before = await count(UserEntity);
      const res = await app.post('/api/v4/users', { ...fresh(), ...body(max + 1) }, { token: 'admin' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { [field]: [rails(max)] } });
      expect(await count(UserEntity)).toBe(before);
    });

    it('refuses an update one character over it and changes nothing', async () => {
      const created = await app.post('/api/v4/users', fresh(), { token: 'admin' });
      const before = (await app.get(`/api/v4/users/${created.body.id}`, { token: 'admin' })).body;
      const res = await app.put(`/api/v4/users/${created.body.id}`, body(max + 1), { token: 'admin' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { [field]: [rails(max)] } });
      expect((await app.get(`/api/v4/users/${created.body.id}`, { token: 'admin' })).body).toEqual(before);
    });
  });
});

describe('personal access tokens', () => {
  it.each([
    { field: 'name', attribute: 'Name', max: 255 },
    { field: 'description', attribute: 'Description', max: 255 },
  ])('keeps a $field of $max characters whole and refuses one more with 422', async ({ field, attribute, max }) => {
    const path = `/api/v4/users/${app.users.developer.id}/personal_access_tokens`;
    const body = (length: number) => ({ name: 'token', scopes: ['api'], [field]: wide(length) });
    const kept = await app.post(path, body(max), { token: 'admin' });
    expect(kept.status).toBe(201);
    expect(kept.body[field]).toBe(wide(max));
    const before = await count(PersonalAccessTokenEntity);
    const refused = await app.post(path, body(max + 1), { token: 'admin' });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: `${attribute} ${rails(max)}` });
    expect(await count(PersonalAccessTokenEntity)).toBe(before);
  });
});

describe('groups', () => {
  const LIMITS: Limit[] = [
    limit('name', 255),
    { field: 'path', max: 255, body: (length) => ({ path: unique(length) }) },
    limit('description', 500, wide),
    limit('default_branch', 255),
  ];
  const fresh = () => {
    const n = next();
    return { name: `length group ${n}`, path: `length-group-${n}` };
  };
  /** GitLab's text for a failed group create: the errors as a Ruby hash. */
  const failedToSave = (field: string, max: number) => `Failed to save group {:${field}=>["${rails(max)}"]}`;

  describe.each(LIMITS)('$field (at most $max)', ({ field, max, body, shown }) => {
    it('keeps a value at the limit whole', async () => {
      const res = await app.post('/api/v4/groups', { ...fresh(), ...body(max) }, { token: 'admin' });
      expect(res.status).toBe(201);
      if (shown) expect((await app.get(`/api/v4/groups/${res.body.id}`, { token: 'admin' })).body[field]).toBe(shown(max));
    });

    it('refuses a value one character over it and stores nothing', async () => {
      const before = await count(NamespaceEntity);
      const res = await app.post('/api/v4/groups', { ...fresh(), ...body(max + 1) }, { token: 'admin' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: failedToSave(field, max) });
      expect(await count(NamespaceEntity)).toBe(before);
    });

    it('refuses an update one character over it and changes nothing', async () => {
      const created = await app.post('/api/v4/groups', fresh(), { token: 'admin' });
      const before = (await app.get(`/api/v4/groups/${created.body.id}`, { token: 'admin' })).body;
      const res = await app.put(`/api/v4/groups/${created.body.id}`, body(max + 1), { token: 'admin' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { [field]: [rails(max)] } });
      expect((await app.get(`/api/v4/groups/${created.body.id}`, { token: 'admin' })).body).toEqual(before);
    });
  });
});

describe('projects', () => {
  const LIMITS: Limit[] = [
    { field: 'name', max: 255, body: (length) => ({ name: unique(length) }) },
    { field: 'path', max: 255, body: (length) => ({ path: unique(length) }) },
    limit('description', 2000, wide),
    limit('ci_config_path', 255),
    { field: 'topics', max: 255, body: (length) => ({ topics: ['short', wide(length)] }), shown: (length) => ['short', wide(length)] },
    limit('repository_storage', 255),
  ];
  const fresh = () => {
    const n = next();
    return { name: `length project ${n}`, path: `length-project-${n}`, namespace_id: app.group.id };
  };

  describe.each(LIMITS)('$field (at most $max)', ({ field, max, body, shown }) => {
    it('keeps a value at the limit whole', async () => {
      const res = await app.post('/api/v4/projects', { ...fresh(), ...body(max) }, { token: 'admin' });
      expect(res.status).toBe(201);
      if (shown) expect((await app.get(`/api/v4/projects/${res.body.id}`, { token: 'admin' })).body[field]).toEqual(shown(max));
    });

    it('refuses a value one character over it and stores nothing', async () => {
      const before = await count(ProjectEntity);
      const res = await app.post('/api/v4/projects', { ...fresh(), ...body(max + 1) }, { token: 'admin' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { [field]: [rails(max)] } });
      expect(await count(ProjectEntity)).toBe(before);
    });

    it('refuses an update one character over it and changes nothing', async () => {
      const created = await app.post('/api/v4/projects', fresh(), { token: 'admin' });
      const project = `/api/v4/projects/${created.body.id}`;
      const { last_activity_at: _at, ...before } = (await app.get(project, { token: 'admin' })).body;
      const res = await app.put(project, body(max + 1), { token: 'admin' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { [field]: [rails(max)] } });
      const { last_activity_at: _after, ...after } = (await app.get(project, { token: 'admin' })).body;
      expect(after).toEqual(before);
    });
  });
});
