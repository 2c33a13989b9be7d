import type { Kernel } from '@forgekit/kernel';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { createSharedDatabaseApps, type SharedDatabaseApps, type TestApp } from '@forgekit/plugin-core/testing';
import { statementsDuring } from '@forgekit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ciVariablesPlugin } from '../plugin.js';

const onPostgres = !!process.env.FORGEKIT_TEST_DATABASE_URL;

type Listed = { key: string; value: string | null };

/** A reading request may take a variable list's page kept under its own change mark: another process's write is seen at once. */
describe('variable list pages kept between reading requests', () => {
  let shared: SharedDatabaseApps;
  let app: TestApp;
  /** A second server process's kernel on the same database. */
  let other: Kernel;
  const variables = () => `/api/v4/projects/${app.project.id}/variables`;

  const listOn = async (kernel: Kernel, query = '') => {
    const response = await kernel.fetch(new Request(`http://localhost${variables()}${query}`, { headers: { 'PRIVATE-TOKEN': app.tokens.maintainer! } }));
    expect(response.status).toBe(200);
    return { text: await response.text(), total: response.headers.get('x-total') };
  };
  const listed = async (kernel: Kernel) => JSON.parse((await listOn(kernel)).text) as Listed[];
  const variableReads = async (kernel: Kernel, run: () => Promise<unknown>) =>
    (await statementsDuring(kernel, run)).filter((sql) => /from `ci_variables`/.test(sql));

  beforeAll(async () => {
    shared = await createSharedDatabaseApps([planLimitsPlugin, ciVariablesPlugin]);
    app = shared.app;
    other = await shared.kernelOnSameDatabase('other');
    for (let i = 1; i <= 3; i++) expect((await app.post(variables(), { key: `KEPT_${i}`, value: `value-${i}` }, { token: 'maintainer' })).status).toBe(201);
  });
  afterAll(async () => {
    await other?.stop();
    await shared?.close();
  });

  it.skipIf(onPostgres)('reads a page once while nothing is committed', async () => {
    await listOn(other);
    const first = await listOn(other);
    expect(await variableReads(other, async () => expect(await listOn(other)).toEqual(first))).toEqual([]);
    // Another page reads its own.
    expect((await variableReads(other, () => listOn(other, '?per_page=1&page=2'))).length).toBeGreaterThan(0);
  });

  it("answers another process's new, changed, hidden and deleted variable on the next request", async () => {
    for (let i = 0; i < 2; i++) expect((await listed(other)).map((variable) => variable.key)).toEqual(['KEPT_1', 'KEPT_2', 'KEPT_3']);

    expect((await app.post(variables(), { key: 'KEPT_NEW', value: 'fresh' }, { token: 'maintainer' })).status).toBe(201);
    expect((await listed(other)).find((variable) => variable.key === 'KEPT_NEW')).toMatchObject({ value: 'fresh' });
    expect((await listOn(other)).total).toBe('4');

    expect((await app.put(`${variables()}/KEPT_1`, { value: 'changed' }, { token: 'maintainer' })).status).toBe(200);
    expect((await listed(other)).find((variable) => variable.key === 'KEPT_1')).toMatchObject({ value: 'changed' });

    const hidden = await app.post(variables(), { key: 'KEPT_HIDDEN', value: 'secret-value', masked_and_hidden: true, masked: true }, { token: 'maintainer' });
    expect(hidden.status).toBe(201);
    expect((await listed(other)).find((variable) => variable.key === 'KEPT_HIDDEN')).toMatchObject({ value: null });

    expect((await app.delete(`${variables()}/KEPT_2`, { token: 'maintainer' })).status).toBe(204);
    expect((await listed(other)).map((variable) => variable.key)).not.toContain('KEPT_2');
  });

  it('keeps each project its own page', async () => {
    const elsewhere = await app.post('/api/v4/projects', { name: 'Other vars', path: 'other-vars', namespace_id: app.group.id }, { token: 'owner' });
    expect(elsewhere.status).toBe(201);
    const path = `/api/v4/projects/${elsewhere.body.id}/variables`;
    const response = await other.fetch(new Request(`http://localhost${path}`, { headers: { 'PRIVATE-TOKEN': app.tokens.owner! } }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
    expect((await listed(other)).length).toBeGreaterThan(0);
  });
});
