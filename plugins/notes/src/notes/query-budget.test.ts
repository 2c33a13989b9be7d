import { createTestApp, type TestApp } from '@forgekit/plugin-core/testing';
import { recordStatements, type StatementLog } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notesPlugin } from '../plugin.js';
import { noteableFixture } from '../testing/noteable-fixture.js';

/**
 * A page of notes: auth (1), the project with the caller's levels (1, shared by the noteable's
 * resolver and the notes' viewer), the page with its total (1) and the authors (1). The fixture's
 * noteable needs no statement of its own; a real one reads its row.
 */
describe('SQL statements per request', () => {
  let app: TestApp;
  let path: string;
  let log: StatementLog;

  beforeAll(async () => {
    app = await createTestApp({ plugins: [notesPlugin, noteableFixture] });
    path = `/api/v4/projects/${app.project.id}/issues/7/notes`;
    for (const token of ['developer', 'maintainer', 'reporter']) {
      expect((await app.post(path, { body: `By the ${token}` }, { token })).status).toBe(201);
    }
    log = recordStatements(app.kernel);
  });
  afterAll(async () => {
    log?.stop();
    await app?.close();
  });

  it('GET .../notes: a full page carries its own total', async () => {
    const sql = await log.during(async () => {
      const res = await app.get(path, { token: 'developer', query: { per_page: 2 } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total')).toBe('3');
    });
    expect(sql.length, sql.join('\n')).toBe(4);
    expect(sql.filter((s) => s.includes('from `notes`') || s.includes('from "notes"'))).toHaveLength(1);
  });

  it('POST .../notes: the project is read once, by the archived-project guard, for the noteable and the viewer too', async () => {
    const sql = await log.during(async () => {
      expect((await app.post(path, { body: 'One more' }, { token: 'developer' })).status).toBe(201);
    });
    expect(
      sql.filter((s) => /from [`"]projects[`"]/.test(s)),
      sql.join('\n'),
    ).toHaveLength(1);
  });
});
