/**
 * The API docs page in a real browser: headless Chromium (Debian's `chromium`, driven by
 * playwright-core) opens `/-/api-docs`, Swagger UI renders every operation of the server's
 * OpenAPI document, and "Try it out" sends real requests, refused without a token and
 * answered with one entered under "Authorize". Skipped, saying why, where no Chromium is
 * installed (`FORGEKIT_TEST_CHROMIUM` names another binary).
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ListeningServer, startListeningServer } from './support/listening-server.js';

const CHROMIUM = process.env.FORGEKIT_TEST_CHROMIUM ?? '/usr/bin/chromium';
// Without the background-networking switches, Chromium keeps calling outside hosts.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const FOUND = existsSync(CHROMIUM);
const WHY_SKIPPED = `no Chromium at ${CHROMIUM} (install Debian's chromium, or name another binary in FORGEKIT_TEST_CHROMIUM)`;
if (!FOUND) console.warn(`test/api-docs-browser.test.ts is skipped: ${WHY_SKIPPED}`);

// `.ci/run` installs Chromium and sets FORGEKIT_REQUIRE_CHROMIUM: there, a missing browser fails instead of skipping.
it.runIf(process.env.FORGEKIT_REQUIRE_CHROMIUM === '1')('has the Chromium the CI run requires', () => {
  expect(FOUND, WHY_SKIPPED).toBe(true);
});

describe.skipIf(!FOUND)(FOUND ? 'the API docs page in headless Chromium' : `the API docs page in headless Chromium (skipped: ${WHY_SKIPPED})`, () => {
  let server: ListeningServer;
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startListeningServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage();
    page.on('request', (request) => requested.push(request.url()));
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${server.url}/-/api-docs`);
    await page.locator('.opblock-tag').first().waitFor({ timeout: 30_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const operation = (method: string, path: string) => page.locator(`.opblock-${method}:has(.opblock-summary-path[data-path="${path}"])`);

  it("lists every plugin's operations under its tag, as the OpenAPI document has them", async () => {
    const document = (await (await fetch(`${server.url}/api/v4/openapi.json`)).json()) as { paths: Record<string, Record<string, { tags: string[] }>> };
    const methods = new Set(['get', 'post', 'put', 'patch', 'delete']);
    const operations = Object.values(document.paths).flatMap((item) =>
      Object.entries(item)
        .filter(([key]) => methods.has(key))
        .map(([, operation]) => operation),
    );
    const tags = [...new Set(operations.flatMap((operation) => operation.tags))];
    expect(tags.length).toBeGreaterThan(20);
    expect(await page.locator('.info .title').textContent()).toContain('forgekit API');
    expect((await page.locator('.opblock-tag').allInnerTexts()).map((text) => text.trim()).sort()).toEqual([...tags].sort());

    await page.locator('.opblock-tag[data-tag="ci-variables"]').click();
    const ciVariables = operations.filter((operation) => operation.tags.includes('ci-variables')).length;
    await expect.poll(() => page.locator('.opblock-tag-section.is-open .opblock').count()).toBe(ciVariables);
    expect(await operation('get', '/api/v4/projects/{id}/variables').count()).toBe(1);
  });

  it('loads nothing from outside the server, and runs without script errors', () => {
    expect(requested.length).toBeGreaterThan(0);
    expect(requested.filter((url) => !url.startsWith(`${server.url}/`) && !url.startsWith('data:'))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('sends real requests from "Try it out": 401 without a token, 200 once authorized', async () => {
    await page.locator('.opblock-tag[data-tag="core"]').click();
    const version = operation('get', '/api/v4/version');
    await version.locator('.opblock-summary').click();
    await version.locator('button.try-out__btn').click();
    const execute = async () => {
      await version.locator('button.execute').click();
      const status = version.locator('.live-responses-table .response .response-col_status').first();
      await status.waitFor();
      const text = (await status.textContent())?.trim();
      await version.locator('button.btn-clear').click();
      return text;
    };
    expect(await execute()).toBe('401');

    await page.locator('.auth-wrapper button.authorize').click();
    const scheme = page.locator('.modal-ux .auth-container').filter({ hasText: 'PRIVATE-TOKEN' }).first();
    await scheme.locator('input').fill(server.rootToken);
    await scheme.locator('button.authorize').click();
    await page.locator('.modal-ux button.close-modal').click();
    expect(await execute()).toBe('200');
  });
});
