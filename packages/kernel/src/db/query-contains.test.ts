import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineEntity } from '@mikro-orm/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { internalsOf } from './internals.js';
import { openDatabase, type Database } from './open-database.js';

const Named = defineEntity({
  name: 'Named',
  tableName: 'named',
  properties: (p) => ({ id: p.integer().primary(), name: p.text().nullable(), path: p.text().nullable() }),
});

describe('whereContains: a column contains a text, the same on both engines', () => {
  let database: Database;
  let dataDir: string;
  const baseUrl = process.env.FORGEKIT_TEST_DATABASE_URL;
  const pgName = `forgekit_contains_${process.pid}_${Date.now()}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    await client.query(text).finally(() => client.end());
  };
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'forgekit-contains-'));
    let url = ':memory:';
    if (baseUrl) {
      await admin(`CREATE DATABASE ${pgName}`);
      const parsed = new URL(baseUrl);
      parsed.pathname = `/${pgName}`;
      url = parsed.toString();
    }
    database = await openDatabase({ url, dataDir, entities: [Named] });
    await internalsOf(database).knex.schema.createTable('named', (t) => {
      t.increments('id');
      t.text('name');
      t.text('path');
    });
    await database.insertMany(Named, [
      { name: 'Test_Group', path: 'x' },
      { name: 'tools 100%', path: 'tools' },
      { name: 'plain', path: 'y' },
      { name: null, path: 'group-path' },
    ]);
  });
  afterAll(async () => {
    await database.close();
    if (baseUrl) await admin(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
    await rm(dataDir, { recursive: true, force: true });
  });

  const matching = async (text: string, columns: readonly ('name' | 'path')[] = ['name']) =>
    (await database.rows(database.from(Named).whereContains(columns, text).orderBy('id'))).map((row) => row.name);

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

  it('matches when any of several columns contains the text', async () => {
    expect(await matching('group', ['name', 'path'])).toEqual(['Test_Group', null]);
  });
});
