import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { issuesPlugin } from '@forgekit/plugin-issues';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { notesPlugin } from '@forgekit/plugin-notes';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeRequestsPlugin } from '../plugin.js';

let app: TestApp;
let base: string;

async function branch(name: string, file: string) {
  const res = await app.post(
    `${base}/repository/commits`,
    {
      branch: name,
      ...(name === 'main' ? {} : { start_branch: 'main' }),
      commit_message: `Add ${file}`,
      actions: [{ action: 'create', file_path: file, content: 'x\n' }],
    },
    { token: 'maintainer' },
  );
  expect(res.status).toBe(201);
}

async function open(title: string, source: string, description?: string) {
  await branch(source, `${source}.txt`);
  const res = await app.post(`${base}/merge_requests`, { title, source_branch: source, target_branch: 'main', description }, { token: 'developer' });
  expect(res.status).toBe(201);
  return res.body as { iid: number; web_url: string };
}

beforeAll(async () => {
  app = await createTestApp({
    plugins: [repositoriesPlugin, labelsPlugin, milestonesPlugin, milestoneEventsPlugin, notesPlugin, issuesPlugin, mergeRequestsPlugin],
  });
  base = `/api/v4/projects/${app.project.id}`;
  await branch('main', 'README.md');
});
afterAll(() => app.close());

describe('render_html on a merge request', () => {
  it('renders the title and description with their references linked and script removed', async () => {
    const first = await open('First', 'first');
    const projectUrl = first.web_url.replace(/\/-\/merge_requests\/\d+$/, '');
    const externalUrl = projectUrl.slice(0, projectUrl.length - `${app.project.namespace.fullPath}/${app.project.path}`.length - 1);
    expect((await app.post(`${base}/labels`, { name: 'bug', color: '#ff0000' }, { token: 'maintainer' })).status).toBe(201);
    const milestone = await app.post(`${base}/milestones`, { title: 'v1' }, { token: 'maintainer' });
    expect(milestone.status).toBe(201);
    const issue = await app.post(`${base}/issues`, { title: 'Crash' }, { token: 'developer' });
    expect(issue.status).toBe(201);
    const secret = await app.post(`${base}/issues`, { title: 'Hidden', confidential: true }, { token: 'maintainer' });
    expect(secret.status).toBe(201);
    const developer = (await app.get('/api/v4/user', { token: 'developer' })).body as { username: string; name: string };
    const mr = await open(
      'Fix ~bug in **core**',
      'second',
      `Follows !1 and #${issue.body.iid}, #${secret.body.iid}, #99, ~bug, %v1, @${developer.username}, ~nothere, !99 and \`!1\`.\n\n<script>alert(1)</script><b onclick="x()">ok</b>`,
    );

    const res = await app.get(`${base}/merge_requests/${mr.iid}`, { token: 'reporter', query: { render_html: true } });
    expect(res.status).toBe(200);
    const label = `<a href="${projectUrl}/-/merge_requests?label_name=bug" class="gfm gfm-label" data-reference-type="label">~bug</a>`;
    expect(res.body.title_html).toBe(`Fix ${label} in <strong>core</strong>`);
    expect(res.body.description_html).toBe(
      `<p>Follows <a href="${projectUrl}/-/merge_requests/1" class="gfm gfm-merge_request" data-reference-type="merge_request" title="First">!1</a> and ` +
        `<a href="${projectUrl}/-/issues/${issue.body.iid}" class="gfm gfm-issue" data-reference-type="issue" title="Crash">#${issue.body.iid}</a>, ` +
        `<a href="${projectUrl}/-/issues/${secret.body.iid}" class="gfm gfm-issue" data-reference-type="issue" title="Hidden">#${secret.body.iid}</a>, #99, ${label}, ` +
        `<a href="${milestone.body.web_url}" class="gfm gfm-milestone" data-reference-type="milestone" title="v1">%v1</a>, ` +
        `<a href="${externalUrl}/${developer.username}" class="gfm gfm-project_member" data-reference-type="user" title="${developer.name}">@${developer.username}</a>, ` +
        '~nothere, !99 and <code>!1</code>.</p>\n<b>ok</b>',
    );

    // Anonymous callers of a public project may not read the confidential issue: its reference stays text for them.
    expect((await app.put(`/api/v4/groups/${app.group.id}`, { visibility: 'public' }, { token: 'admin' })).status).toBe(200);
    expect((await app.put(base, { visibility: 'public' }, { token: 'admin' })).status).toBe(200);
    const guest = await app.get(`${base}/merge_requests/${mr.iid}`, { query: { render_html: true } });
    expect(guest.status).toBe(200);
    expect(guest.body.description_html).toContain(`title="Crash">#${issue.body.iid}</a>, #${secret.body.iid}, #99,`);
  });

  it('renders them on every item of a list with render_html', async () => {
    const res = await app.get(`${base}/merge_requests`, { token: 'reporter', query: { render_html: true, search: 'Fix', in: 'title' } });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0].title_html).toMatch(
      /^Fix <a href="[^"]+\/-\/merge_requests\?label_name=bug" class="gfm gfm-label" data-reference-type="label">~bug<\/a> in <strong>core<\/strong>$/,
    );
    expect(res.body[0].description_html).toMatch(/^<p>Follows <a /);
    const plain = await app.get(`${base}/merge_requests`, { token: 'reporter' });
    expect(plain.body[0]).not.toHaveProperty('title_html');
  });

  it('leaves the fields out without render_html and renders an empty description as empty', async () => {
    const mr = await open('Plain', 'plain');
    const plain = await app.get(`${base}/merge_requests/${mr.iid}`, { token: 'reporter' });
    expect(plain.status).toBe(200);
    expect(plain.body).not.toHaveProperty('title_html');
    expect(plain.body).not.toHaveProperty('description_html');
    const rendered = await app.get(`${base}/merge_requests/${mr.iid}`, { token: 'reporter', query: { render_html: 'true' } });
    expect(rendered.body).toMatchObject({ title_html: 'Plain', description_html: '' });
  });

  it('rejects a render_html that is not a boolean', async () => {
    const res = await app.get(`${base}/merge_requests/1`, { token: 'reporter', query: { render_html: 'maybe' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'render_html is invalid' });
  });
});
