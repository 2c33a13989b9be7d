import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { page } from '../http/responses.js';
import { defineRoute } from '../http/route.js';
import { createKernel, type Kernel } from '../kernel.js';
import { definePlugin } from '../plugin/define-plugin.js';
import { kernelServices } from '../plugin/kernel-services.js';
import { createMetrics, type Metrics } from './metrics.js';
import { internalsOf } from '../db/internals.js';

/** `/-/metrics` scraped over a real socket, behind a trusted proxy, while requests, statements and jobs run. */
let webhooks: Metrics;
const counted = definePlugin({
  id: 'counted',
  compatibility: '*',
  migrations: [{ name: '202601010000-rows', up: (knex) => knex.schema.createTable('counted_rows', (table) => table.increments('id')) }],
  register(ctx) {
    const knex = internalsOf(ctx.resolve(kernelServices.database)).knex;
    webhooks = ctx.resolve(kernelServices.metrics);
    ctx.jobs.define('counted:works', async () => {
      await knex('counted_rows').insert({});
    });
    ctx.jobs.define('counted:fails', async () => {
      throw new Error('this job fails');
    });
    ctx.routes(
      defineRoute({
        method: 'GET',
        path: '/rows/:id',
        auth: 'none',
        handler: async (req) => (await knex('counted_rows').where({ id: req.params.id }).first()) ?? null,
      }),
      defineRoute({ method: 'GET', path: '/links', auth: 'none', paginated: true, handler: () => page([], 100) }),
    );
  },
});

let dataDir: string;
let kernel: Kernel;
let server: Server;
let port: number;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'kernel-metrics-'));
  kernel = await createKernel({ plugins: [counted], config: { databaseUrl: ':memory:', dataDir, logLevel: 'silent', trustProxy: true } });
  await kernel.start();
  server = createServer(kernel.nodeListener).listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server?.close();
  await kernel?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; link: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), link: String(res.headers.link ?? ''), text }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The value of one sample line (`name{labels} value`) in a scrape, or 0 when it is not there yet. */
function sample(text: string, line: string): number {
  const found = text.split('\n').find((entry) => entry.startsWith(`${line} `));
  return found ? Number(found.slice(line.length + 1)) : 0;
}

const scrape = async () => (await get('/-/metrics')).text;

describe('/-/metrics', () => {
  it('answers local callers in the Prometheus text format, with the process metrics', async () => {
    const res = await get('/-/metrics');
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(res.text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
  });

  it('hides from a remote caller behind the trusted proxy', async () => {
    expect((await get('/-/metrics', { 'X-Forwarded-For': '203.0.113.7' })).status).toBe(404);
  });

  it('counts requests by route template and status, with their durations', async () => {
    const route = 'route="/api/v4/rows/:id"';
    const before = await scrape();
    await get('/api/v4/rows/1');
    await get('/api/v4/rows/2');
    await get('/api/v4/nowhere');
    const after = await scrape();
    expect(sample(after, `forgekit_http_requests_total{method="GET",${route},status="200"}`)).toBe(
      sample(before, `forgekit_http_requests_total{method="GET",${route},status="200"}`) + 2,
    );
    expect(sample(after, `forgekit_http_request_duration_seconds_count{method="GET",${route},status="200"}`)).toBe(
      sample(before, `forgekit_http_request_duration_seconds_count{method="GET",${route},status="200"}`) + 2,
    );
    const unmatched = 'forgekit_http_requests_total{method="GET",route="(unmatched)",status="404"}';
    expect(sample(after, unmatched)).toBe(sample(before, unmatched) + 1);
  });

  it('times database statements by operation', async () => {
    const selects = 'forgekit_db_statement_duration_seconds_count{operation="select"}';
    const before = sample(await scrape(), selects);
    await get('/api/v4/rows/1');
    expect(sample(await scrape(), selects)).toBeGreaterThan(before);
  });

  it('counts job runs and failures by name', async () => {
    const before = await scrape();
    await kernel.jobs.run('counted:works');
    await expect(kernel.jobs.run('counted:fails')).rejects.toThrow('this job fails');
    const after = await scrape();
    for (const [line, added] of [
      ['forgekit_job_runs_total{job="counted:works"}', 1],
      ['forgekit_job_failures_total{job="counted:works"}', 0],
      ['forgekit_job_runs_total{job="counted:fails"}', 1],
      ['forgekit_job_failures_total{job="counted:fails"}', 1],
    ] as const) {
      expect(sample(after, line), line).toBe(sample(before, line) + added);
    }
  });

  it('counts webhook deliveries a plugin reports through the metrics service', async () => {
    const line = 'forgekit_webhook_deliveries_total{outcome="failed"}';
    const before = sample(await scrape(), line);
    webhooks.countWebhookDelivery('failed');
    expect(sample(await scrape(), line)).toBe(before + 1);
  });
});

describe('links behind a trusted proxy', () => {
  it('take the scheme and host from X-Forwarded-Proto and X-Forwarded-Host', async () => {
    const res = await get('/api/v4/links', { Host: '10.0.0.5:3000', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'forge.example.com' });
    expect(res.link).toContain('<https://forge.example.com/api/v4/links?page=2&per_page=20>; rel="next"');
  });
});

describe('request counts', () => {
  it('show every request once, whichever way the metrics are read and however often', async () => {
    const metrics = createMetrics();
    const line = (status: string) => `forgekit_http_requests_total{method="GET",route="/projects/:id",status="${status}"}`;
    metrics.observeRequest('GET', '/projects/:id', 200, 0.001);
    metrics.observeRequest('GET', '/projects/:id', 200, 0.002);
    metrics.observeRequest('GET', '/projects/:id', null, 0.003);
    let text = (await metrics.exposition()).text;
    expect([sample(text, line('200')), sample(text, line('none'))]).toEqual([2, 1]);
    metrics.observeRequest('GET', '/projects/:id', 200, 0.004);
    const counted = (await metrics.snapshot()).find((metric) => (metric as { name: string }).name === 'forgekit_http_requests_total') as {
      values: { labels: Record<string, string>; value: number }[];
    };
    expect(counted.values.find((value) => value.labels.status === '200')?.value).toBe(3);
    text = (await metrics.exposition()).text;
    expect([sample(text, line('200')), sample(text, line('none'))]).toEqual([3, 1]);
    expect(sample(text, 'forgekit_http_request_duration_seconds_count{method="GET",route="/projects/:id",status="200"}')).toBe(3);
    expect(sample(text, 'forgekit_http_request_duration_seconds_bucket{le="0.0025",method="GET",route="/projects/:id",status="200"}')).toBe(2);
  });

  it('time statements by their operation, a statement seen again counted again', async () => {
    const metrics = createMetrics();
    for (const sql of ['select 1', 'select 1', 'insert into t values (?)', 'with gone as (select 1) delete from t', 'PRAGMA x']) {
      metrics.observeStatement(sql, 0.0001);
    }
    const text = (await metrics.exposition()).text;
    const count = (operation: string) => sample(text, `forgekit_db_statement_duration_seconds_count{operation="${operation}"}`);
    expect(['select', 'insert', 'delete', 'other', 'update'].map(count)).toEqual([2, 1, 1, 1, 0]);
  });
});
