import { createFragmentCache, type Kernel } from '@forgekit/kernel';
import { createSharedDatabaseApps, type SharedDatabaseApps, type TestApp } from '@forgekit/plugin-core/testing';
import { recordStatements } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project, ProjectFieldExtension } from '../contracts.js';
import { UserEntity } from '../entities/user.js';
import { USER_BASIC_PROPERTIES } from '../users/user-query.js';
import type { UserBasicSource } from '../users/user-presenter.js';
import { createProjectFragments } from './project-fragments.js';
import { projectBasic, projectFull } from './project-presenter.js';
import { asProjects, projectsWithNamespace } from './project-query.js';

describe('project answers from the presented cache', () => {
  let app: TestApp;
  let shared: SharedDatabaseApps;
  /** A second server process's kernel on the same database. */
  let other: Kernel;
  let personalId: number;

  const listOn = async (kernel: Kernel, query = 'per_page=100') => {
    const response = await kernel.fetch(new Request(`http://localhost/api/v4/projects?${query}`, { headers: { 'PRIVATE-TOKEN': app.tokens.admin! } }));
    expect(response.status).toBe(200);
    return (await response.json()) as Record<string, any>[];
  };
  const projectOn = async (kernel: Kernel, id: number, query?: string) => {
    const found = (await listOn(kernel, query)).find((project) => project.id === id);
    expect(found).toBeDefined();
    return found!;
  };

  beforeAll(async () => {
    // Two processes share a database: the suite's PostgreSQL database, or a SQLite file.
    shared = await createSharedDatabaseApps();
    app = shared.app;
    other = await shared.kernelOnSameDatabase('other');
    const created = await app.post('/api/v4/projects', { name: 'Personal' }, { token: 'owner' });
    expect(created.status).toBe(201);
    personalId = created.body.id;
  });
  afterAll(async () => {
    await other?.stop();
    await shared?.close();
  });

  it('shows at once, on another process, a change to each row a project answer reads', async () => {
    const groupProject = app.project.id;
    // Both views are cached on the other process before each change.
    const warm = async () => {
      await listOn(other);
      await listOn(other, 'per_page=100&simple=true');
    };

    await warm();
    expect((await app.put(`/api/v4/projects/${groupProject}`, { description: 'first change' }, { token: 'owner' })).status).toBe(200);
    expect((await projectOn(other, groupProject)).description).toBe('first change');
    expect((await projectOn(other, groupProject, 'per_page=100&simple=true')).description).toBe('first change');

    // Twice within what may be one millisecond: the version is a counter, not a time.
    await warm();
    await app.put(`/api/v4/projects/${groupProject}`, { description: 'second change' }, { token: 'owner' });
    await warm();
    await app.put(`/api/v4/projects/${groupProject}`, { description: 'third change' }, { token: 'owner' });
    expect((await projectOn(other, groupProject)).description).toBe('third change');

    // The project's settings.
    await warm();
    expect((await app.put(`/api/v4/projects/${groupProject}`, { issues_access_level: 'private' }, { token: 'owner' })).status).toBe(200);
    expect((await projectOn(other, groupProject)).issues_access_level).toBe('private');

    // Archiving.
    await warm();
    expect((await app.post(`/api/v4/projects/${groupProject}/archive`, undefined, { token: 'owner' })).status).toBe(201);
    expect((await projectOn(other, groupProject)).archived).toBe(true);
    await app.post(`/api/v4/projects/${groupProject}/unarchive`, undefined, { token: 'owner' });

    // Its namespace (the group).
    await warm();
    expect((await app.put(`/api/v4/groups/${app.group.id}`, { name: 'Renamed Group' }, { token: 'owner' })).status).toBe(200);
    const renamed = await projectOn(other, groupProject);
    expect(renamed.namespace.name).toBe('Renamed Group');
    expect(renamed.name_with_namespace).toMatch(/^Renamed Group \/ /);
    expect((await projectOn(other, groupProject, 'per_page=100&simple=true')).namespace.name).toBe('Renamed Group');

    // A personal project's owner.
    await warm();
    const owner = app.users.owner!;
    expect((await app.put(`/api/v4/users/${owner.id}`, { name: 'Renamed Owner' }, { token: 'admin' })).status).toBe(200);
    expect((await projectOn(other, personalId)).owner.name).toBe('Renamed Owner');

    // The owner's username, which renames their personal namespace too.
    await warm();
    expect((await app.put(`/api/v4/users/${owner.id}`, { username: 'renamed-owner' }, { token: 'admin' })).status).toBe(200);
    const moved = await projectOn(other, personalId);
    expect(moved.owner.username).toBe('renamed-owner');
    expect(moved.namespace.full_path).toBe('renamed-owner');
    expect(moved.path_with_namespace).toBe('renamed-owner/personal');
    expect((await projectOn(other, personalId, 'per_page=100&simple=true')).path_with_namespace).toBe('renamed-owner/personal');
  });

  it('answers the same bytes from the cache as the presenter does, whoever asks', async () => {
    const database = app.kernel.database;
    const rows = asProjects<Project & { owner: UserBasicSource | null }>(
      await database.rows(
        projectsWithNamespace(database).leftJoin(UserEntity, 'o', 'o.id', 'n.ownerId').nest('owner', 'o', USER_BASIC_PROPERTIES).orderBy('p.id'),
      ),
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const onDisk = new Map<number, boolean>();
    const extensions: ProjectFieldExtension[] = [
      (_project, body) => {
        if (body.default_branch === null || body.default_branch === undefined) body.default_branch = 'main';
      },
      (project, body, view) => {
        if (view === 'full') body.empty_repo = !onDisk.get(project.id);
      },
      (project, body) => {
        if (project.id % 2 === 0) body.extra_field = `extra ${project.id}`;
      },
    ];
    const fragments = createProjectFragments(createFragmentCache({ maxBytes: 1024 * 1024 }), extensions);
    const viewers = [
      { isAdmin: false, permissions: undefined },
      { isAdmin: true, permissions: { projectLevel: 40, groupLevel: null } },
      { isAdmin: false, permissions: { projectLevel: null, groupLevel: 50 } },
    ];
    for (const externalUrl of ['http://localhost', 'https://forge.example.com/sub']) {
      for (let round = 0; round < 3; round++) {
        // The state an extension reads outside the rows changes between rounds.
        for (const row of rows) onDisk.set(row.id, round === 1);
        // A page's fragments share the viewer's repeated values; the answers are the same.
        const page = fragments.forPage();
        for (const row of rows) {
          expect(fragments.basic(row, externalUrl).text).toBe(JSON.stringify(projectBasic(row, externalUrl, extensions)));
          expect(page.basic(row, externalUrl).text).toBe(JSON.stringify(projectBasic(row, externalUrl, extensions)));
          for (const viewer of viewers) {
            const options = { externalUrl, owner: row.owner, ...viewer };
            expect(fragments.full(row, options).text).toBe(JSON.stringify(projectFull(row, { ...options, extensions })));
            expect(page.full(row, options).text).toBe(JSON.stringify(projectFull(row, { ...options, extensions })));
          }
        }
      }
    }
  });

  it('answers a hit from the kept text, even when an extension decides from a field of the body', async () => {
    const database = app.kernel.database;
    const rows = asProjects<Project & { owner: UserBasicSource | null }>(
      await database.rows(
        projectsWithNamespace(database).leftJoin(UserEntity, 'o', 'o.id', 'n.ownerId').nest('owner', 'o', USER_BASIC_PROPERTIES).orderBy('p.id'),
      ),
    );
    // Projects with a default branch of their own, which the extension below leaves alone.
    for (const row of rows) row.defaultBranch = 'trunk';
    let runs = 0;
    // As the repositories plugin does: fill in the instance's default branch only where the body has none.
    const extensions: ProjectFieldExtension[] = [
      (_project, body, view) => {
        runs++;
        if (body.default_branch === null || body.default_branch === undefined) body.default_branch = 'main';
        if (view === 'full') body.empty_repo = false;
      },
    ];
    const fragments = createProjectFragments(createFragmentCache({ maxBytes: 1024 * 1024 }), extensions);
    const options = (row: (typeof rows)[number]) => ({ externalUrl: 'http://localhost', owner: row.owner, isAdmin: true, permissions: undefined });
    for (const row of rows) fragments.full(row, options(row));
    runs = 0;
    for (const row of rows) {
      expect(fragments.full(row, options(row)).text).toBe(JSON.stringify(projectFull(row, { ...options(row), extensions })));
    }
    // One run per answer for the check above, and one per hit: a hit that fell back to presenting anew would run it twice.
    expect(runs).toBe(rows.length * 2);
  });

  it('answers a row found by its key as the presenter does, giving extensions the project fields they read on the miss', async () => {
    const database = app.kernel.database;
    const rows = asProjects<Project & { owner: UserBasicSource | null }>(
      await database.rows(
        projectsWithNamespace(database).leftJoin(UserEntity, 'o', 'o.id', 'n.ownerId').nest('owner', 'o', USER_BASIC_PROPERTIES).orderBy('p.id'),
      ),
    );
    // An extension that reads fields of the project that the key does not carry.
    const extensions: ProjectFieldExtension[] = [
      (project, body, view) => {
        if (view === 'full') body.empty_repo = `${project.path}@${project.repositoryStorage}`.length > 100;
        body.readme_url = `${project.namespace.fullPath}/${project.path}/README.md`;
      },
    ];
    const fragments = createProjectFragments(createFragmentCache({ maxBytes: 1024 * 1024 }), extensions);
    const options = (row: (typeof rows)[number]) => ({ externalUrl: 'http://localhost', owner: row.owner, isAdmin: true, permissions: undefined });
    for (const row of rows) fragments.full(row, options(row));
    const page = fragments.forPage();
    for (const row of rows) {
      const key = {
        id: row.id,
        lockVersion: row.lockVersion,
        repositoryStorage: row.repositoryStorage,
        namespace: { ...row.namespace, fullPath: undefined } as never,
        owner: row.owner && { id: row.owner.id, lockVersion: row.owner.lockVersion },
      };
      const kept = page.kept('full', key, 'http://localhost');
      expect(kept).toBeDefined();
      expect(page.keptFull(kept!, { isAdmin: true, permissions: undefined })?.text).toBe(JSON.stringify(projectFull(row, { ...options(row), extensions })));
    }
    expect(page.kept('full', { ...rows[0]!, owner: rows[0]!.owner, lockVersion: (rows[0]!.lockVersion ?? 0) + 1 }, 'http://localhost')).toBeUndefined();
  });

  it('answers project and user lists as a kernel without the cache does', async () => {
    const uncached = await shared.kernelOnSameDatabase('uncached', { presentedCacheBytes: 0 });
    const text = async (kernel: Kernel, path: string, token: string) => {
      const response = await kernel.fetch(new Request(`http://localhost/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': token } }));
      expect(response.status).toBe(200);
      return response.text();
    };
    try {
      for (const role of ['admin', 'maintainer', 'nonMember'] as const) {
        const paths = ['/projects?per_page=100', '/projects?simple=true', '/users?per_page=100'];
        // The group is private: a non-member does not see it.
        if (role !== 'nonMember') paths.push(`/groups/${app.group.id}/projects`);
        for (const path of paths) {
          const fresh = await text(uncached, path, app.tokens[role]!);
          expect(await text(other, path, app.tokens[role]!)).toBe(fresh);
          expect(await text(other, path, app.tokens[role]!)).toBe(fresh);
        }
      }
    } finally {
      await uncached.stop();
    }
  });

  it('shows a renamed user in the user list of another process at once', async () => {
    const names = async () =>
      (
        (await (
          await other.fetch(new Request('http://localhost/api/v4/users?per_page=100', { headers: { 'PRIVATE-TOKEN': app.tokens.maintainer! } }))
        ).json()) as { id: number; name: string }[]
      ).map((user) => user.name);
    expect(await names()).toContain('Reporter User');
    expect((await app.put(`/api/v4/users/${app.users.reporter!.id}`, { name: 'Renamed Reporter' }, { token: 'admin' })).status).toBe(200);
    expect(await names()).toContain('Renamed Reporter');
  });

  it('answers a list the same on a hit as on a miss', async () => {
    const first = await app.get('/api/v4/projects', { token: 'maintainer', query: { per_page: 100 } });
    const second = await app.get('/api/v4/projects', { token: 'maintainer', query: { per_page: 100 } });
    expect(first.status).toBe(200);
    expect(first.body.length).toBeGreaterThan(0);
    expect(second.text).toBe(first.text);
    expect(first.body[0].permissions).toBeDefined();
  });
  it('reads a page as keys, and whole only the projects whose answer is not kept', async () => {
    const log = recordStatements(app.kernel);
    // The simple view: answering the update below keeps the project's full view already.
    const query = { per_page: 100, simple: true };
    try {
      const wholeReads = (sql: string[]) => sql.filter((statement) => statement.includes('settings'));
      await app.get('/api/v4/projects', { token: 'admin', query });
      const kept = await log.during(async () => expect((await app.get('/api/v4/projects', { token: 'admin', query })).status).toBe(200));
      expect(wholeReads(kept), kept.join('\n')).toEqual([]);

      expect((await app.put(`/api/v4/projects/${app.project.id}`, { description: 'read whole again' }, { token: 'owner' })).status).toBe(200);
      let listed: Record<string, unknown>[] = [];
      const changed = await log.during(async () => {
        listed = (await app.get('/api/v4/projects', { token: 'admin', query })).body;
      });
      expect(wholeReads(changed), changed.join('\n')).toHaveLength(1);
      expect(listed.find((project) => project.id === app.project.id)?.description).toBe('read whole again');
    } finally {
      log.stop();
    }
  });
});
