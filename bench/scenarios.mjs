/**
 * What `npm run bench` measures. Add an endpoint by adding one object to `scenarios`:
 *
 *   name          shown in the table
 *   method        HTTP method
 *   path          relative to /api/v4; a string or `(ctx) => string`
 *   headers       optional extra headers, or `(ctx) => headers` (the root token, and a JSON
 *                 content type when there is a body, are sent unless these replace them)
 *   body          optional JSON value, or `(ctx) => value`, sent with every request
 *   setupRequest  optional `(request, ctx) => request`, run before every request, e.g. to
 *                 give each POST a unique body (`ctx.unique(prefix)`)
 *   seed          optional `async (api, ctx) => extra context` run once before measuring
 *   targets       optional `{ minRatio, maxP99Ms, minRps }` printed as met or missed
 *                 (maxP99Ms and minRps are checked at the lowest connection count); every
 *                 GET also gets `GET_TARGETS` (bench/lib/report.mjs)
 *
 * `ctx` holds `api` (a JSON client with the root token), the seeded `group` and `project`,
 * `unique(prefix)`, and whatever the scenario's `seed` returned. A scenario whose seed or
 * first request answers 404 is skipped with a note: its plugin is not installed.
 */
import { createServer } from 'node:http';

/** How long the hook receiver of the hooked commit scenario takes to answer. */
const HOOK_RECEIVER_DELAY_MS = 1000;

/**
 * A hook receiver in the bench process on 127.0.0.1 that answers 200 after `delayMs`; it does not
 * keep the process alive.
 */
async function startSlowReceiver(delayMs) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => setTimeout(() => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok'), delayMs).unref());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  return `http://127.0.0.1:${server.address().port}`;
}

/** Rows in the list, so a page of 20 is full. */
export const LIST_PROJECTS = 25;

/** Data every scenario can use: a group, the measured project, and enough projects to page. */
export async function seedBase(api, unique) {
  const group = await api.post('/groups', { name: `Bench ${unique('group')}`, path: unique('bench-group') });
  const project = await api.post('/projects', { name: 'Bench project', path: 'bench-project', namespace_id: group.id });
  for (let i = 1; i <= LIST_PROJECTS; i++) {
    await api.post('/projects', { name: `Listed ${i}`, path: `listed-${i}`, namespace_id: group.id });
  }
  return { group, project };
}

export const scenarios = [
  {
    name: 'GET /projects/:id',
    method: 'GET',
    path: ({ project }) => `/projects/${project.id}`,
    targets: { minRatio: 0.25 },
  },
  {
    name: 'GET /projects?per_page=20',
    method: 'GET',
    path: '/projects?per_page=20',
    targets: { minRatio: 0.1 },
  },
  {
    name: 'POST /projects',
    method: 'POST',
    path: '/projects',
    setupRequest: (request, { group, unique }) => ({ ...request, body: JSON.stringify({ name: unique('created'), namespace_id: group.id }) }),
  },
  {
    name: 'GET /projects/:id/variables',
    method: 'GET',
    path: ({ project }) => `/projects/${project.id}/variables`,
    async seed(api, { project }) {
      for (let i = 1; i <= 10; i++) await api.post(`/projects/${project.id}/variables`, { key: `BENCH_VAR_${i}`, value: `value-${i}` });
    },
  },
  {
    name: 'POST /projects/:id/variables',
    method: 'POST',
    path: ({ targets }) => `/projects/${targets[0]}/variables`,
    // Spread over projects so the run stays below the plan limit of 8000 variables per project.
    async seed(api, { group }) {
      const targets = [];
      for (let i = 1; i <= 20; i++) targets.push((await api.post('/projects', { name: `Variables ${i}`, path: `variables-${i}`, namespace_id: group.id })).id);
      return { targets };
    },
    setupRequest: (request, { targets, unique }) => {
      const key = unique('BENCH').replace(/\W/g, '_');
      const target = targets[Number(key.slice(key.lastIndexOf('_') + 1)) % targets.length];
      return { ...request, path: `/api/v4/projects/${target}/variables`, body: JSON.stringify({ key, value: 'v' }) };
    },
  },
  {
    name: 'POST /projects/:id/issues',
    method: 'POST',
    path: ({ postIssuesProject }) => `/projects/${postIssuesProject.id}/issues`,
    async seed(api, { group }) {
      // The run creates issues faster than the default limit (300 a minute per user and project) allows.
      await api.put('/application/settings', { issues_create_limit: 0 });
      const postIssuesProject = await api.post('/projects', { name: 'Bench issue posts', path: 'bench-issue-posts', namespace_id: group.id });
      return { postIssuesProject };
    },
    setupRequest: (request, { unique }) => ({ ...request, body: JSON.stringify({ title: `Issue ${unique('issue')}`, description: 'Created by the bench' }) }),
  },
  {
    name: 'GET /projects/:id/issues?per_page=20',
    method: 'GET',
    path: ({ issuesProject }) => `/projects/${issuesProject.id}/issues?per_page=20`,
    async seed(api, { group }) {
      const issuesProject = await api.post('/projects', { name: 'Bench issues', path: 'bench-issues', namespace_id: group.id });
      const milestone = await api.post(`/projects/${issuesProject.id}/milestones`, { title: 'Bench milestone' });
      for (let i = 1; i <= 25; i++) {
        await api.post(`/projects/${issuesProject.id}/issues`, { title: `Bench issue ${i}`, labels: 'bench,backend', milestone_id: milestone.id });
      }
      return { issuesProject };
    },
    targets: { minRatio: 0.1 },
  },
  {
    name: 'GET /groups/:id/labels?with_counts=true',
    method: 'GET',
    path: ({ group }) => `/groups/${group.id}/labels?with_counts=true`,
    async seed(api, { group }) {
      for (let i = 1; i <= 20; i++) {
        await api.post(`/groups/${group.id}/labels`, { name: `bench-label-${String(i).padStart(2, '0')}`, color: '#428BCA', description: `Label **${i}**` });
      }
    },
    targets: { minRatio: 0.06 },
  },
  {
    // Listed by a user who is not an administrator: an administrator's view is presented afresh.
    name: 'GET /users?per_page=20 (not an administrator)',
    method: 'GET',
    path: '/users?per_page=20',
    headers: ({ listerToken }) => ({ 'private-token': listerToken }),
    async seed(api, { unique }) {
      const created = [];
      for (let i = 1; i <= 25; i++) {
        const username = unique('bench-user');
        created.push(await api.post('/users', { username, name: `Bench user ${i}`, email: `${username}@example.com`, password: `Bench-password-${username}` }));
      }
      const token = await api.post(`/users/${created[0].id}/personal_access_tokens`, { name: 'bench', scopes: ['api'] });
      return { listerToken: token.token };
    },
    targets: { minRatio: 0.1 },
  },
  {
    name: 'GET /projects/:id/badges (rendered placeholders)',
    method: 'GET',
    path: ({ badgesProject }) => `/projects/${badgesProject.id}/badges`,
    // A project with a repository, two badges of its group and four of its own, each URL
    // naming placeholders: paths, names and ids from the project, the default branch and its
    // head commit from the repository.
    async seed(api, { group }) {
      const badgesProject = await api.post('/projects', { name: 'Bench badges', path: 'bench-badges', namespace_id: group.id, initialize_with_readme: true });
      for (let i = 1; i <= 2; i++) {
        await api.post(`/groups/${group.id}/badges`, {
          name: `Group ${i}`,
          link_url: `https://%{service_server}/%{project_path}/-/wikis/home?n=${i}`,
          image_url: `https://img.example.com/%{project_namespace}/%{project_name}/${i}.svg`,
        });
      }
      for (let i = 1; i <= 4; i++) {
        await api.post(`/projects/${badgesProject.id}/badges`, {
          name: `Pipeline ${i}`,
          link_url: `https://ci.example.com/%{project_path}/-/commits/%{default_branch}?id=%{project_id}&n=${i}`,
          image_url: `https://ci.example.com/%{project_path}/badges/%{default_branch}/pipeline.svg?sha=%{commit_sha}`,
        });
      }
      return { badgesProject };
    },
    targets: { minRatio: 0.06 },
  },
  {
    name: 'GET /projects/:id/wikis?with_content=true (20 pages)',
    method: 'GET',
    path: ({ wikiProject }) => `/projects/${wikiProject.id}/wikis?with_content=true`,
    // Twenty Markdown pages, two in a directory, each a file in the wiki's git repository.
    async seed(api, { group }) {
      const wikiProject = await api.post('/projects', { name: 'Bench wiki', path: 'bench-wiki', namespace_id: group.id });
      for (let i = 1; i <= 20; i++) {
        const title = i <= 2 ? `guides/Page ${i}` : `Page ${i}`;
        await api.post(`/projects/${wikiProject.id}/wikis`, {
          title,
          content: `# Page ${i}\n\nSome **text** for page ${i}, with [a link](https://example.com/${i}).\n`,
        });
      }
      return { wikiProject };
    },
    targets: { minRatio: 0.06 },
  },
  {
    name: 'POST /projects/:id/repository/commits',
    method: 'POST',
    path: ({ repo }) => `/projects/${repo.id}/repository/commits`,
    async seed(api, { group }) {
      const repo = await api.post('/projects', { name: 'Bench repo', path: 'bench-repo', namespace_id: group.id, initialize_with_readme: true });
      return { repo };
    },
    setupRequest: (request, { repo, unique }) => {
      const file = unique('file');
      return {
        ...request,
        body: JSON.stringify({
          branch: repo.default_branch ?? 'main',
          commit_message: `Add ${file}`,
          actions: [{ action: 'create', file_path: `bench/${file}.txt`, content: file }],
        }),
      };
    },
    targets: { minRps: 100, maxP99Ms: 150 },
  },
  {
    name: 'GET /merge_requests?scope=all&state=opened&labels=a&per_page=20',
    method: 'GET',
    path: '/merge_requests?scope=all&state=opened&labels=a&per_page=20',
    // 25 open merge requests labelled `a`, each from its own pushed branch with one commit.
    async seed(api, { group }) {
      const mrProject = await api.post('/projects', {
        name: 'Bench merge requests',
        path: 'bench-merge-requests',
        namespace_id: group.id,
        initialize_with_readme: true,
      });
      const target = mrProject.default_branch ?? 'main';
      for (let i = 1; i <= 25; i++) {
        const branch = `feature-${i}`;
        await api.post(`/projects/${mrProject.id}/repository/commits`, {
          branch,
          start_branch: target,
          commit_message: `Change ${i}`,
          actions: [{ action: 'create', file_path: `changes/${i}.txt`, content: `change ${i}\n` }],
        });
        await api.post(`/projects/${mrProject.id}/merge_requests`, {
          source_branch: branch,
          target_branch: target,
          title: `Bench merge request ${i}`,
          labels: 'a',
        });
      }
      return { mrProject };
    },
    targets: { minRatio: 0.05 },
  },
  {
    name: 'GET /projects/:id/issues/:iid/notes?per_page=20 (100 notes)',
    method: 'GET',
    path: ({ notesIssue }) => `/projects/${notesIssue.project_id}/issues/${notesIssue.iid}/notes?per_page=20`,
    async seed(api, { group }) {
      // Seeding and the POST scenario below create notes faster than the default limit allows.
      await api.put('/application/settings', { notes_create_limit: 0 });
      const notesProject = await api.post('/projects', { name: 'Bench notes', path: 'bench-notes', namespace_id: group.id });
      const notesIssue = await api.post(`/projects/${notesProject.id}/issues`, { title: 'Bench notes issue' });
      for (let i = 1; i <= 100; i++) {
        await api.post(`/projects/${notesProject.id}/issues/${notesIssue.iid}/notes`, { body: `Note **${i}** with [a link](https://example.com/${i}).` });
      }
      return { notesIssue };
    },
    targets: { minRatio: 0.06 },
  },
  {
    name: 'POST /projects/:id/issues/:iid/notes',
    method: 'POST',
    path: ({ postNotesIssue }) => `/projects/${postNotesIssue.project_id}/issues/${postNotesIssue.iid}/notes`,
    async seed(api, { group }) {
      await api.put('/application/settings', { notes_create_limit: 0 });
      const postNotesProject = await api.post('/projects', { name: 'Bench note posts', path: 'bench-note-posts', namespace_id: group.id });
      const postNotesIssue = await api.post(`/projects/${postNotesProject.id}/issues`, { title: 'Bench note posts issue' });
      return { postNotesIssue };
    },
    setupRequest: (request, { unique }) => ({ ...request, body: JSON.stringify({ body: `Comment ${unique('note')}` }) }),
  },
  {
    // The same commit with 5 hooks on the project's group whose receiver takes a second to answer:
    // deliveries are queued jobs, so the request should cost about what it costs without hooks (the
    // plain commits row). The group is the project's own, so no other scenario's project has hooks.
    // Measured last: its deliveries go on in the background long after it, and would load the
    // server while the scenarios after it were measured.
    name: 'POST /projects/:id/repository/commits (5 group hooks, slow receiver)',
    method: 'POST',
    path: ({ hookedRepo }) => `/projects/${hookedRepo.id}/repository/commits`,
    async seed(api, { unique }) {
      const hookedGroup = await api.post('/groups', { name: `Bench hooks ${unique('group')}`, path: unique('bench-hooks') });
      const hookedRepo = await api.post('/projects', {
        name: 'Bench hooked repo',
        path: 'bench-hooked-repo',
        namespace_id: hookedGroup.id,
        initialize_with_readme: true,
      });
      const receiverUrl = await startSlowReceiver(HOOK_RECEIVER_DELAY_MS);
      await api.put('/application/settings', { allow_local_requests_from_web_hooks_and_services: true });
      for (let i = 1; i <= 5; i++) await api.post(`/groups/${hookedGroup.id}/hooks`, { url: `${receiverUrl}/hook-${i}`, push_events: true });
      return { hookedRepo };
    },
    setupRequest: (request, { hookedRepo, unique }) => {
      const file = unique('file');
      return {
        ...request,
        body: JSON.stringify({
          branch: hookedRepo.default_branch ?? 'main',
          commit_message: `Add ${file}`,
          actions: [{ action: 'create', file_path: `bench/${file}.txt`, content: file }],
        }),
      };
    },
  },
];
