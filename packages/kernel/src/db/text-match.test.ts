import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './open-database.js';
import { containsText } from './text-match.js';

describe('containsText', () => {
  let database: Database;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-text-match-'));
    // Only selects without tables run here, so the base database serves on PostgreSQL.
    database = await openDatabase({ url: process.env.FORGEKIT_TEST_DATABASE_URL ?? ':memory:', dataDir, entities: [] });
  });
  afterAll(async () => {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const names = ['Test_Group', 'tools 100%', 'plain', null];
  async function matching(text: string): Promise<(string | null)[]> {
    const { knex } = database.legacy;
    const rows = names.map((name, index) => knex.raw('select ? as id, cast(? as text) as name', [index, name]).toQuery()).join(' union all ');
    const found = await knex
      .from(knex.raw(`(${rows}) as t`))
      .where(containsText(knex, 't.name', text))
      .orderBy('t.id')
      .select('t.name');
    return found.map((row: { name: string | null }) => row.name);
  }

  it('matches a substring, ignoring case', async () => {
    expect(await matching('GROUP')).toEqual(['Test_Group']);
    expect(await matching('T')).toEqual(['Test_Group', 'tools 100%']);
    expect(await matching('')).toEqual(['Test_Group', 'tools 100%', 'plain']);
  });

  it('takes % and _ literally', async () => {
    expect(await matching('%')).toEqual(['tools 100%']);
    expect(await matching('t_g')).toEqual(['Test_Group']);
    expect(await matching('s_g')).toEqual([]);
  });

  it('takes a text of any length', async () => {
    expect(await matching('x'.repeat(200_000))).toEqual([]);
  });
});
