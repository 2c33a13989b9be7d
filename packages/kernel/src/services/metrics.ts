/**
 * Prometheus metrics (prom-client): requests, database statements and jobs, measured by the
 * kernel; webhook deliveries, counted by the plugin that delivers them; and the process's own
 * metrics. Served at `/-/metrics` to local callers.
 */
import { performance } from 'node:perf_hooks';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/open-database.js';
import { internalsOf } from '../db/internals.js';

export interface Metrics {
  /** This kernel's registry: a plugin may register metrics of its own on it. */
  readonly registry: Registry;
  /** Counts one webhook delivery by its outcome (for example `delivered`, `failed`, `timed_out`). */
  countWebhookDelivery(outcome: string): void;
  /** What a scrape of `/-/metrics` answers: this kernel's metrics and the process's. */
  exposition(): Promise<MetricsExposition>;
  /** The same metrics as plain data, to be added up with other processes' by `aggregateMetrics`. */
  snapshot(): Promise<MetricsSnapshot>;
}

/** One process's metrics as plain data (prom-client's JSON form), safe to send between processes. */
export type MetricsSnapshot = object[];

/** Adds up the snapshots of several processes (counters and histograms summed, as prom-client's cluster support does). */
export async function aggregateMetrics(snapshots: readonly MetricsSnapshot[]): Promise<MetricsExposition> {
  const registry = AggregatorRegistry.aggregate([...snapshots]);
  return { contentType: registry.contentType, text: await registry.metrics() };
}

export interface MetricsExposition {
  contentType: string;
  text: string;
}

/** What the kernel measures; not part of the service plugins see. */
export interface KernelMetrics extends Metrics {
  observeRequest(method: string, route: string, status: number | null, seconds: number): void;
  observeStatement(sql: string, seconds: number): void;
  countJob(job: string, failed: boolean): void;
}

/** Route label of requests no route matched, and of CORS preflights (answered before routing). */
export const UNMATCHED_ROUTE = '(unmatched)';
export const PREFLIGHT_ROUTE = '(preflight)';

/** Statement texts whose operation is remembered. */
const STATEMENTS_KEPT = 1000;

const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const STATEMENT_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

let processRegistry: Registry | undefined;

/**
 * The process's metrics (CPU, memory, event loop lag, GC, handles), collected once per
 * process however many kernels it runs: prom-client's collectors start timers and
 * observers that live as long as the process.
 */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** `select`, `insert`, `update`, `delete`, or `other` (transactions, DDL, pragmas). */
function operationOf(sql: string): string {
  const match = /^\s*\(?\s*(with|select|insert|update|delete)\b/i.exec(sql);
  if (!match) return 'other';
  const word = match[1]!.toLowerCase();
  if (word !== 'with') return word;
  // A CTE: the statement's own verb follows the common table expressions.
  return /\)\s*(select|insert|update|delete)\b[^)]*$/i.exec(sql)?.[1]?.toLowerCase() ?? 'select';
}

type RequestLabel = 'method' | 'route' | 'status';

interface RequestEntry {
  labels: Record<RequestLabel, string>;
  /** Requests counted since the counter was last read. */
  unreported: number;
  seconds: Histogram.Internal<RequestLabel>;
}

export function createMetrics(): KernelMetrics {
  // Process metrics count from when they are first collected: start them with the first kernel.
  processMetrics();
  const registry = new Registry();
  const requests = new Counter({
    name: 'forgekit_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status (status "none" when the client went away).',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
    collect() {
      for (const entry of requestEntries.values()) {
        if (entry.unreported === 0) continue;
        requests.inc(entry.labels, entry.unreported);
        entry.unreported = 0;
      }
    },
  });
  const requestSeconds = new Histogram({
    name: 'forgekit_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being written, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const requestEntries = new Map<string, RequestEntry>();
  const statementSeconds = new Histogram({
    name: 'forgekit_db_statement_duration_seconds',
    help: 'Duration of SQL statements, by operation (select, insert, update, delete, other).',
    labelNames: ['operation'] as const,
    buckets: STATEMENT_BUCKETS,
    registers: [registry],
  });
  const operationChildren = new Map<string, Histogram.Internal<'operation'>>();
  const statementObservers = new Map<string, (seconds: number) => void>();
  const jobRuns = new Counter({
    name: 'forgekit_job_runs_total',
    help: 'Background job runs, by job name.',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: 'forgekit_job_failures_total',
    help: 'Background job runs that failed, by job name.',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: 'forgekit_webhook_deliveries_total',
    help: 'Webhook deliveries, by outcome.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });

  return {
    registry,
    countWebhookDelivery: (outcome) => webhookDeliveries.inc({ outcome }),
    async exposition() {
      const merged = Registry.merge([processMetrics(), registry]);
      return { contentType: merged.contentType, text: await merged.metrics() };
    },
    async snapshot() {
      return [...(await processMetrics().getMetricsAsJSON()), ...(await registry.getMetricsAsJSON())];
    },
    observeRequest(method, route, status, seconds) {
      // prom-client builds and hashes a label set on every call: keep one entry per method,
      // route and status (all finite: an unmatched path is one route label), count in it and
      // hand the counts over when the counter is read.
      const key = `${method} ${status ?? 'none'} ${route}`;
      let entry = requestEntries.get(key);
      if (!entry) {
        const labels = { method, route, status: status === null ? 'none' : String(status) };
        entry = { labels, unreported: 0, seconds: requestSeconds.labels(labels) };
        requestEntries.set(key, entry);
      }
      entry.unreported++;
      entry.seconds.observe(seconds);
    },
    observeStatement(sql, seconds) {
      let observe = statementObservers.get(sql);
      if (!observe) {
        // Statement texts repeat (values are bound apart), but a list of ids makes new ones: keep a bounded number.
        if (statementObservers.size >= STATEMENTS_KEPT) statementObservers.clear();
        const operation = operationOf(sql);
        let child = operationChildren.get(operation);
        if (!child) {
          child = statementSeconds.labels({ operation });
          operationChildren.set(operation, child);
        }
        observe = child.observe;
        statementObservers.set(sql, observe);
      }
      observe(seconds);
    },
    countJob(job, failed) {
      jobRuns.inc({ job });
      if (failed) jobFailures.inc({ job });
    },
  };
}

interface KnexQuery {
  sql?: string;
  __knexQueryUid?: string;
}

/**
 * Feeds every statement's duration to `observe`: knex's query events for what runs through
 * knex (writes, migrations, transactions), the prepared-statement timer for entity reads.
 * Returns the unsubscribe.
 */
export function timeStatements(database: Database, observe: (sql: string, seconds: number) => void): () => void {
  const started = new Map<string, number>();
  const onQuery = (query: KnexQuery) => {
    if (query.__knexQueryUid) started.set(query.__knexQueryUid, performance.now());
  };
  const onDone = (query: KnexQuery | undefined) => {
    const uid = query?.__knexQueryUid;
    const start = uid === undefined ? undefined : started.get(uid);
    if (start === undefined) return;
    started.delete(uid!);
    observe(query!.sql ?? '', (performance.now() - start) / 1000);
  };
  const onResponse = (_response: unknown, query: KnexQuery) => onDone(query);
  const onError = (_error: unknown, query: KnexQuery) => onDone(query);
  const { knex } = internalsOf(database);
  knex.on('query', onQuery).on('query-response', onResponse).on('query-error', onError);
  const stopReads = database.timeReads(observe);
  return () => {
    knex.off('query', onQuery).off('query-response', onResponse).off('query-error', onError);
    stopReads();
    started.clear();
  };
}
