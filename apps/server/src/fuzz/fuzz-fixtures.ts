/**
 * Real resources of every plugin, made through the API before fuzzing, so that path
 * params such as `:variable_id` or `:schedule_id` name something and requests reach handlers.
 */
import type { TestApp } from '@forgekit/plugin-core/testing';

export interface FuzzFixtures {
  /** Encoded path segments that name a real record, by placeholder (and, for `:id`, the segment before it). */
  realValues(placeholder: string, before: string): string[];
  /** Real values for parameters: ids, names, refs. */
  readonly realTexts: string[];
  /** Puts back what fuzzing may have changed on the shared project and group. */
  repair(): Promise<void>;
}

const FLAG = 'fuzz-flag';
const KEY = 'FUZZ_VAR';

export async function seedFuzzFixtures(app: TestApp): Promise<FuzzFixtures> {
  async function make(method: string, path: string, body?: unknown): Promise<any> {
    const res = await app.request(method, `/api/v4${path}`, { token: 'admin', body });
    if (res.status >= 300) throw new Error(`seeding ${method} ${path} gave ${res.status} ${res.text}`);
    return res.body;
  }
  const project = `/projects/${app.project.id}`;
  const group = `/groups/${app.group.id}`;

  const commit = await make('POST', `${project}/repository/commits`, {
    branch: 'main',
    commit_message: 'Fuzz fixtures',
    actions: [
      { action: 'create', file_path: 'README.md', content: '# Fuzz\n' },
      { action: 'create', file_path: 'docs/guide.md', content: 'Guide\n' },
    ],
  });
  await make('POST', `${project}/repository/branches`, { branch: 'fuzz-branch', ref: 'main' });
  await make('POST', `${project}/repository/tags`, { tag_name: 'v1.0', ref: 'main', message: 'Fuzz tag' });
  const file = await make('GET', `${project}/repository/files/README.md?ref=main`);

  // Receptive agents gate the URL configuration routes.
  await make('PUT', '/application/settings', { receptive_cluster_agents_enabled: true });
  await make('POST', `${project}/variables`, { key: KEY, value: 'project value' });
  await make('POST', `${group}/variables`, { key: KEY, value: 'group value' });
  await make('POST', '/admin/ci/variables', { key: KEY, value: 'instance value' });
  await make('POST', `${project}/feature_flags`, { name: FLAG });
  const userList = await make('POST', `${project}/feature_flags_user_lists`, { name: 'fuzz-list', user_xids: 'u1,u2' });
  const schedule = await make('POST', `${project}/pipeline_schedules`, { description: 'Fuzz', ref: 'main', cron: '0 1 * * *' });
  await make('POST', `${project}/pipeline_schedules/${schedule.id}/variables`, { key: KEY, value: 'schedule value' });
  const runner = await make('POST', '/user/runners', { runner_type: 'project_type', project_id: app.project.id, description: 'fuzz runner' });
  const agent = await make('POST', `${project}/cluster_agents`, { name: 'fuzz-agent' });
  const agentToken = await make('POST', `${project}/cluster_agents/${agent.id}/tokens`, { name: 'fuzz-token' });
  const urlConfiguration = await make('POST', `${project}/cluster_agents/${agent.id}/url_configurations`, { url: 'grpc://agent.example.com' });
  // A user of its own for the admin-only user routes, so that fuzzing never blocks a seeded role.
  const victim = await make('POST', '/users', { email: 'fuzz-victim@example.com', name: 'Fuzz Victim', username: 'fuzz-victim', password: 'password12345' });
  const victimToken = await make('POST', `/users/${victim.id}/personal_access_tokens`, { name: 'fuzz', scopes: ['api'] });
  await make('POST', `${project}/members`, { user_id: victim.id, access_level: 30 });
  await make('POST', `${group}/members`, { user_id: victim.id, access_level: 30 });
  const move = await make('POST', `${project}/repository_storage_moves`, { destination_storage_name: 'second' });

  const fullPath = `${app.project.namespace.fullPath}/${app.project.path}`;
  const projectPath = encodeURIComponent(fullPath);
  const ids: Record<string, string[]> = {
    projects: [String(app.project.id), projectPath],
    groups: [String(app.group.id), app.group.path],
    namespaces: [String(app.group.id), app.group.path],
    users: [String(victim.id)],
    personal_access_tokens: [String(victimToken.id)],
    runners: [String(runner.id)],
    snippets: ['424242'],
  };
  const byName: Record<string, string[]> = {
    user_id: [String(victim.id)],
    key: [KEY],
    feature_flag_name: [FLAG],
    iid: [String(userList.iid)],
    project_id: [String(app.project.id), projectPath],
    pipeline_schedule_id: [String(schedule.id)],
    runner_id: [String(runner.id)],
    agent_id: [String(agent.id)],
    token_id: [String(agentToken.id)],
    url_configuration_id: [String(urlConfiguration.id)],
    repository_storage_move_id: [String(move.id)],
    sha: [commit.id, file.blob_id, 'main'],
    branch: ['fuzz-branch', 'main'],
    tag_name: ['v1.0'],
    file_path: ['README.md', 'docs%2Fguide.md'],
    submodule: ['lib%2Fmodule'],
  };

  return {
    realValues(placeholder, before) {
      if (placeholder === 'id') return ids[before] ?? [String(app.project.id)];
      if (byName[placeholder]) return byName[placeholder]!;
      // Git over HTTP: `/:namespace/:project.git/...`, spread over numbered placeholders.
      if (/^s\d+$/.test(placeholder)) return placeholder === 's0' ? [app.project.namespace.fullPath] : [`${app.project.path}.git`, app.project.path];
      return [String(app.project.id)];
    },
    realTexts: [
      String(app.project.id),
      String(app.group.id),
      String(victim.id),
      fullPath,
      app.group.path,
      'main',
      'fuzz-branch',
      'v1.0',
      KEY,
      FLAG,
      commit.id,
      'README.md',
      'developer',
      'fuzz-victim',
      'api',
      'second',
      'default',
    ],
    async repair() {
      await app.request('POST', `/api/v4${project}/unarchive`, { token: 'admin' });
      await app.request('PUT', `/api/v4${project}`, { token: 'admin', body: { name: app.project.name, path: app.project.path, default_branch: 'main' } });
      await app.request('PUT', `/api/v4${group}`, { token: 'admin', body: { name: app.group.name, path: app.group.path } });
    },
  };
}
