import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { recordStatements, type StatementLog } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('POST /projects writes', () => {
  let app: TestApp;
  let log: StatementLog;

  beforeAll(async () => {
    app = await createTestApp();
    // A used token is not touched again for a while, as on a running server.
    await app.get('/api/v4/user', { token: 'owner' });
    log = recordStatements(app.kernel);
  });
  afterAll(async () => {
    log?.stop();
    await app?.close();
  });

  const create = (body: Record<string, unknown>) =>
    log.during(async () => expect((await app.post('/api/v4/projects', body, { token: 'owner' })).status).toBe(201));

  it('a project in a group as its one row, with no transaction around it', async () => {
    const sql = await create({ name: 'In a group', namespace_id: app.group.id });
    const writes = sql.filter((statement) => !/^select/i.test(statement));
    expect(writes, sql.join('\n')).toHaveLength(1);
    expect(writes[0]).toMatch(/^insert into [`"]projects[`"]/);
  });

  it('a personal project with its owner as an Owner member, both in one transaction', async () => {
    const sql = await create({ name: 'Personal one' });
    // The statement's kind and table, whatever the dialect quotes names with.
    const writes = sql.filter((statement) => !/^select/i.test(statement)).map((statement) => statement.split(' (')[0]!.replace(/[`";]/g, '').toLowerCase());
    expect(writes, sql.join('\n')).toEqual(['begin', 'insert into projects', 'insert into members', 'commit']);
    const user = (await app.get('/api/v4/user', { token: 'owner' })).body as { id: number; username: string };
    const project = (await app.get(`/api/v4/projects/${encodeURIComponent(`${user.username}/personal-one`)}`, { token: 'owner' })).body as { id: number };
    const members = (await app.get(`/api/v4/projects/${project.id}/members`, { token: 'owner' })).body as { id: number; access_level: number }[];
    expect(members).toEqual([expect.objectContaining({ id: user.id, access_level: 50 })]);
  });
});
