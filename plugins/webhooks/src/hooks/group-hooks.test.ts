import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { webhooksPlugin } from '../plugin.js';

describe('group hooks CRUD', () => {
  let app: TestApp;
  let base: string;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [webhooksPlugin] });
    base = `/api/v4/groups/${app.group.id}/hooks`;
  });
  afterAll(() => app?.close());

  const PUBLIC_URL = 'http://93.184.216.34/hook';

  it('creates a hook with GitLab’s defaults and never shows the token or secret values', async () => {
    const res = await app.post(
      base,
      {
        url: PUBLIC_URL,
        token: 'secret-token',
        name: 'Main',
        url_variables: [{ key: 'abc', value: 'def' }],
        custom_headers: [{ key: 'X-Custom', value: 'hidden' }],
      },
      { token: 'owner' },
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      url: PUBLIC_URL,
      name: 'Main',
      description: '',
      group_id: app.group.id,
      created_at: expect.any(String),
      push_events: true,
      tag_push_events: false,
      merge_requests_events: false,
      repository_update_events: false,
      issues_events: false,
      confidential_issues_events: false,
      note_events: false,
      confidential_note_events: null,
      pipeline_events: false,
      wiki_page_events: false,
      job_events: false,
      deployment_events: false,
      feature_flag_events: false,
      releases_events: false,
      milestone_events: false,
      subgroup_events: false,
      emoji_events: false,
      resource_access_token_events: false,
      member_events: false,
      vulnerability_events: false,
      project_events: false,
      enable_ssl_verification: true,
      alert_status: 'executable',
      disabled_until: null,
      url_variables: [{ key: 'abc' }],
      push_events_branch_filter: null,
      branch_filter_strategy: 'wildcard',
      custom_webhook_template: '',
      custom_headers: [{ key: 'X-Custom' }],
    });
    expect(JSON.stringify(res.body)).not.toContain('secret-token');

    const shown = await app.get(`${base}/${res.body.id}`, { token: 'owner' });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual(res.body);
    const list = await app.get(base, { token: 'admin' });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([res.body]);
    expect(list.headers.get('x-total')).toBe('1');
  });

  it('answers GitLab’s errors on create', async () => {
    expect((await app.post(base, {}, { token: 'owner' })).body).toEqual({ error: 'url is missing' });
    const badStrategy = await app.post(base, { url: PUBLIC_URL, branch_filter_strategy: 'nope' }, { token: 'owner' });
    expect(badStrategy.status).toBe(400);
    expect(badStrategy.body).toEqual({ error: 'branch_filter_strategy does not have a valid value' });
    for (const url of ['ftp://93.184.216.34/x', 'not a url', 'http://127.0.0.1:9/x', 'http://10.1.2.3/x', 'http://[::1]/x', 'http://93.184.216.34/{missing}']) {
      const res = await app.post(base, { url }, { token: 'owner' });
      expect([url, res.status, res.body]).toEqual([url, 422, { message: 'Invalid url given' }]);
    }
    const filter = await app.post(base, { url: PUBLIC_URL, push_events_branch_filter: '~badbranchname/' }, { token: 'owner' });
    expect([filter.status, filter.body]).toEqual([422, { message: 'Invalid branch filter given' }]);
    const regex = await app.post(base, { url: PUBLIC_URL, branch_filter_strategy: 'regex', push_events_branch_filter: '(' }, { token: 'owner' });
    expect([regex.status, regex.body]).toEqual([422, { message: 'Invalid branch filter given' }]);
    const headers = await app.post(base, { url: PUBLIC_URL, custom_headers: [{ key: 'bad key', value: 'x' }] }, { token: 'owner' });
    expect([headers.status, headers.body]).toEqual([422, { message: 'Custom headers must be a valid json schema' }]);
    const long = await app.post(base, { url: PUBLIC_URL, name: 'n'.repeat(256) }, { token: 'owner' });
    expect([long.status, long.body]).toEqual([422, { message: 'Name is too long (maximum is 255 characters)' }]);
  });

  it('keeps hooks to the admin and the group Owner', async () => {
    expect((await app.get(base, { token: 'maintainer' })).status).toBe(403);
    expect((await app.post(base, { url: PUBLIC_URL }, { token: 'maintainer' })).status).toBe(403);
    expect((await app.get(base, { token: 'nonMember' })).status).toBe(404);
    expect((await app.get(base)).status).toBe(401);
    const created = await app.post(base, { url: PUBLIC_URL }, { token: 'admin' });
    expect(created.status).toBe(201);
  });

  it('merges variables and headers on update, clears the token and headers when the URL changes', async () => {
    const created = await app.post(
      base,
      { url: 'http://93.184.216.34/{path}', token: 't', url_variables: [{ key: 'path', value: 'a' }], custom_headers: [{ key: 'X-One', value: '1' }] },
      { token: 'owner' },
    );
    const item = `${base}/${created.body.id}`;
    expect((await app.put(item, {}, { token: 'owner' })).body).toEqual({ message: 'No parameters provided' });

    const merged = await app.put(
      item,
      { url_variables: [{ key: 'other', value: 'b' }], custom_headers: [{ key: 'X-Two', value: '2' }], issues_events: true },
      { token: 'owner' },
    );
    expect(merged.status).toBe(200);
    expect(merged.body).toMatchObject({
      url_variables: [{ key: 'path' }, { key: 'other' }],
      custom_headers: [{ key: 'X-One' }, { key: 'X-Two' }],
      issues_events: true,
      push_events: true,
    });

    const moved = await app.put(item, { url: 'http://93.184.216.35/{path}' }, { token: 'owner' });
    expect(moved.status).toBe(200);
    expect(moved.body.custom_headers).toEqual([]);

    const all = await app.put(item, { branch_filter_strategy: 'all_branches', push_events_branch_filter: 'main' }, { token: 'owner' });
    expect(all.body).toMatchObject({ branch_filter_strategy: 'all_branches', push_events_branch_filter: null });
    expect((await app.put(item, { url: 'ftp://x' }, { token: 'owner' })).body).toEqual({ message: 'Invalid url given' });
    expect((await app.put(`${base}/999999`, { name: 'x' }, { token: 'owner' })).body).toEqual({ message: '404 Not found' });
  });

  it('sets and unsets URL variables and custom headers by key', async () => {
    const created = await app.post(base, { url: 'http://93.184.216.34/{a}', url_variables: [{ key: 'a', value: 'x' }] }, { token: 'owner' });
    const item = `${base}/${created.body.id}`;
    expect((await app.put(`${item}/url_variables/b`, { value: 'y' }, { token: 'owner' })).status).toBe(204);
    expect((await app.put(`${item}/url_variables/abc def`, { value: 'y' }, { token: 'owner' })).body).toEqual({ message: 'Illegal key or value' });
    expect((await app.put(`${item}/url_variables/b`, {}, { token: 'owner' })).body).toEqual({ error: 'value is missing' });
    expect((await app.delete(`${item}/url_variables/a`, { token: 'owner' })).body).toEqual({ message: 'Could not unset variable' });
    expect((await app.delete(`${item}/url_variables/b`, { token: 'owner' })).status).toBe(204);
    expect((await app.delete(`${item}/url_variables/b`, { token: 'owner' })).body).toEqual({ message: '404 URL variable Not Found' });

    expect((await app.put(`${item}/custom_headers/X-Key`, { value: 'v' }, { token: 'owner' })).status).toBe(204);
    expect((await app.get(item, { token: 'owner' })).body.custom_headers).toEqual([{ key: 'X-Key' }]);
    expect((await app.delete(`${item}/custom_headers/X-Key`, { token: 'owner' })).status).toBe(204);
    expect((await app.delete(`${item}/custom_headers/X-Key`, { token: 'owner' })).body).toEqual({ message: '404 Custom header Not Found' });
  });

  it('deletes a hook, honouring If-Unmodified-Since', async () => {
    const created = await app.post(base, { url: PUBLIC_URL }, { token: 'owner' });
    const item = `${base}/${created.body.id}`;
    const stale = await app.delete(item, { token: 'owner', headers: { 'If-Unmodified-Since': new Date(Date.now() - 3_600_000).toUTCString() } });
    expect(stale.status).toBe(412);
    expect((await app.delete(item, { token: 'owner' })).status).toBe(204);
    expect((await app.get(item, { token: 'owner' })).status).toBe(404);
  });

  it('removes a group’s hooks with the group', async () => {
    const group = await app.post('/api/v4/groups', { name: 'Doomed', path: 'doomed' }, { token: 'admin' });
    const hooks = `/api/v4/groups/${group.body.id}/hooks`;
    expect((await app.post(hooks, { url: PUBLIC_URL }, { token: 'admin' })).status).toBe(201);
    expect((await app.delete(`/api/v4/groups/${group.body.id}`, { token: 'admin' })).status).toBe(202);
    const again = await app.post('/api/v4/groups', { name: 'Doomed', path: 'doomed' }, { token: 'admin' });
    expect((await app.get(`/api/v4/groups/${again.body.id}/hooks`, { token: 'admin' })).body).toEqual([]);
  });
});
