import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { labelsPlugin } from '../plugin.js';

/** Every documented answer of the group and project label endpoints, with its exact body. */
describe('label endpoints: documented statuses and bodies', () => {
  let app: TestApp;
  let group: string;
  let sub: string;
  let project: string;
  let planner: string;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [labelsPlugin] });
    group = `/api/v4/groups/${app.group.id}/labels`;
    project = `/api/v4/projects/${app.project.id}/labels`;
    const subgroup = await app.post('/api/v4/groups', { name: 'Sub', path: 'sub', parent_id: app.group.id }, { token: 'owner' });
    sub = `/api/v4/groups/${subgroup.body.id}/labels`;
    const user = await app.post(
      '/api/v4/users',
      { username: 'planner', name: 'planner', email: 'planner@example.com', password: 'password1234' },
      { token: 'admin' },
    );
    planner = (await app.post(`/api/v4/users/${user.body.id}/personal_access_tokens`, { name: 't', scopes: ['api'] }, { token: 'admin' })).body.token;
    const member = await app.post(`/api/v4/groups/${app.group.id}/members`, { user_id: user.body.id, access_level: 15 }, { token: 'owner' });
    expect(member.status).toBe(201);
    await app.post(group, { name: 'parent-label', color: '#123456' }, { token: 'owner' });
  });
  afterAll(() => app?.close());

  const expectAnswer = (res: { status: number; body: unknown }, status: number, body: unknown) =>
    expect({ status: res.status, body: res.body }).toEqual({ status, body });

  it('needs authentication and a visible group or project', async () => {
    for (const path of [group, `${group}/parent-label`, project, `${project}/parent-label`]) {
      expectAnswer(await app.get(path, { token: null }), 401, { message: '401 Unauthorized' });
    }
    expectAnswer(await app.get(group, { token: 'nonMember' }), 404, { message: '404 Group Not Found' });
    expectAnswer(await app.post(group, { name: 'x', color: '#123456' }, { token: 'nonMember' }), 404, { message: '404 Group Not Found' });
    expectAnswer(await app.get(project, { token: 'nonMember' }), 404, { message: '404 Project Not Found' });
    expectAnswer(await app.post(`${group}/parent-label/subscribe`, undefined, { token: 'nonMember' }), 404, { message: '404 Group Not Found' });
  });

  it('lets planners and reporters write labels, not guests', async () => {
    expectAnswer(await app.post(group, { name: 'by-guest', color: '#123456' }, { token: 'guest' }), 403, { message: '403 Forbidden' });
    expectAnswer(await app.put(`${group}/parent-label`, { color: '#000000' }, { token: 'guest' }), 403, { message: '403 Forbidden' });
    expectAnswer(await app.delete(`${group}/parent-label`, { token: 'guest' }), 403, { message: '403 Forbidden' });
    expectAnswer(await app.post(project, { name: 'by-guest', color: '#123456' }, { token: 'guest' }), 403, { message: '403 Forbidden' });
    expect((await app.post(group, { name: 'by-planner', color: '#123456' }, { token: planner })).status).toBe(201);
    expect((await app.put(`${group}/by-planner`, { color: '#000000' }, { token: planner })).status).toBe(200);
    expect((await app.post(project, { name: 'project-by-planner', color: '#123456' }, { token: planner })).status).toBe(201);
    expect((await app.delete(`${project}/project-by-planner`, { token: planner })).status).toBe(204);
    expect((await app.delete(`${group}/by-planner`, { token: planner })).status).toBe(204);
  });

  it('answers the parameter and model errors with GitLab texts', async () => {
    expectAnswer(await app.post(group, {}, { token: 'owner' }), 400, { error: 'name is missing, color is missing' });
    expectAnswer(await app.post(group, { name: 'x' }, { token: 'owner' }), 400, { error: 'color is missing' });
    expectAnswer(await app.post(group, { name: 'parent-label', color: '#123456' }, { token: 'owner' }), 409, { message: 'Label already exists' });
    expectAnswer(await app.post(sub, { name: 'parent-label', color: '#123456' }, { token: 'owner' }), 409, { message: 'Label already exists' });
    expectAnswer(await app.post(project, { name: 'parent-label', color: '#123456' }, { token: 'owner' }), 409, { message: 'Label already exists' });
    expectAnswer(await app.post(group, { name: 'a,b', color: 'nope' }, { token: 'owner' }), 400, {
      message: { title: ['is invalid'], color: ['must be a valid color code'] },
    });
    expectAnswer(await app.post(group, { name: 'x'.repeat(256), color: '#123456' }, { token: 'owner' }), 400, {
      message: { title: ['is too long (maximum is 255 characters)'] },
    });
    expectAnswer(await app.put(`${group}/parent-label`, {}, { token: 'owner' }), 400, {
      error: 'new_name, color, description, archived are missing, at least one parameter must be provided',
    });
    expectAnswer(await app.put(group, { color: '#000000' }, { token: 'owner' }), 400, {
      error: 'label_id, name are missing, exactly one parameter must be provided',
    });
    expectAnswer(await app.delete(group, { token: 'owner' }), 400, { error: 'name is missing' });
    expectAnswer(await app.put(project, { color: '#000000' }, { token: 'owner' }), 400, {
      error: 'label_id, name are missing, exactly one parameter must be provided',
    });
  });

  it('answers 404 Label Not Found for unknown labels and for an ancestor label on update and delete', async () => {
    const notFound = { message: '404 Label Not Found' };
    expectAnswer(await app.get(`${group}/missing`, { token: 'guest' }), 404, notFound);
    expectAnswer(await app.get(`${project}/missing`, { token: 'guest' }), 404, notFound);
    expectAnswer(await app.put(`${sub}/parent-label`, { color: '#000000' }, { token: 'owner' }), 404, notFound);
    expectAnswer(await app.delete(`${sub}/parent-label`, { token: 'owner' }), 404, notFound);
    expectAnswer(await app.post(`${group}/missing/subscribe`, undefined, { token: 'guest' }), 404, notFound);
    expectAnswer(await app.post(`${group}/missing/unsubscribe`, undefined, { token: 'guest' }), 404, notFound);
    expectAnswer(await app.delete(`${project}/missing`, { token: 'owner' }), 404, notFound);
    expect((await app.get(`${sub}/parent-label`, { token: 'guest' })).status).toBe(200);
  });

  it('answers 201 to subscribe and unsubscribe and 304 with no body to a repeat', async () => {
    expect((await app.post(`${group}/parent-label/subscribe`, undefined, { token: 'guest' })).body).toMatchObject({ subscribed: true });
    const again = await app.post(`${group}/parent-label/subscribe`, undefined, { token: 'guest' });
    expect([again.status, again.text]).toEqual([304, '']);
    const off = await app.post(`${group}/parent-label/unsubscribe`, undefined, { token: 'guest' });
    expect([off.status, off.body.subscribed]).toEqual([201, false]);
    const offAgain = await app.post(`${group}/parent-label/unsubscribe`, undefined, { token: 'guest' });
    expect([offAgain.status, offAgain.text]).toEqual([304, '']);
  });

  it('answers 412 to a delete with a stale If-Unmodified-Since', async () => {
    await app.post(group, { name: 'stale', color: '#123456' }, { token: 'owner' });
    const res = await app.delete(`${group}/stale`, { token: 'owner', headers: { 'If-Unmodified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' } });
    expectAnswer(res, 412, { message: '412 Precondition Failed' });
  });
});

describe('label titles and descriptions lose markup as GitLab stores them', () => {
  let app: TestApp;
  let group: string;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [labelsPlugin] });
    group = `/api/v4/groups/${app.group.id}/labels`;
  });
  afterAll(() => app?.close());

  it.each([
    ['<b>foo & bar?</b>', 'foo & bar?'],
    ['  <i>padded</i>  ', 'padded'],
    ['&lt;kept&gt; &amp; &#x41;&#66;', '<kept> & AB'],
    ['<script>alert(1)</script>after', 'after'],
    ['one<br>two', 'one two'],
    ['a < b', 'a < b'],
    ['x <!-- note --> y', 'x  y'],
  ])('stores %j as %j', async (name, stored) => {
    const res = await app.post(group, { name, color: '#123456', description: `<p>${name}</p>` }, { token: 'owner' });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe(stored);
    expect(res.body.description).toBe(stored);
    await app.delete(`${group}/${res.body.id}`, { token: 'owner' });
  });

  it('refuses a title that is nothing but markup, and cleans a new name', async () => {
    const blank = await app.post(group, { name: '<b></b>', color: '#123456' }, { token: 'owner' });
    expect({ status: blank.status, body: blank.body }).toEqual({ status: 400, body: { message: { title: ["can't be blank", 'is invalid'] } } });
    const label = await app.post(group, { name: 'plain', color: '#123456' }, { token: 'owner' });
    const renamed = await app.put(`${group}/${label.body.id}`, { new_name: '<em>fancy</em>' }, { token: 'owner' });
    expect([renamed.status, renamed.body.name]).toEqual([200, 'fancy']);
  });
});
