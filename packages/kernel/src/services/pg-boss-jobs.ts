import type PgBoss from 'pg-boss';
import { inject, injectable } from '../plugin/registry.js';
import type { KernelConfig } from '../config/kernel-config.js';
import { kernelTokens } from '../plugin/kernel-tokens.js';
import { BaseJobService, type EnqueueOptions, JOB_STOP_GRACE_MS } from './jobs.js';
import type { Logger } from './logger.js';

/** pg-boss queue names allow letters, digits, `_`, `-` and `.`; ours use `:`. */
const queueName = (name: string) => name.replace(':', '.');

/**
 * Seconds between two looks at its queue by the first worker of a job. A job enqueued by this
 * process wakes an idle worker at once, so polling only bounds the wait for jobs another process
 * queued, retries and schedules. Each look is a query per process and queue, hence 1 s rather than
 * pg-boss's minimum of 0.5 s, which would double that idle load for little.
 */
const POLL_SECONDS = 1;
/**
 * The further workers of a job (its concurrency) look by themselves only this rarely: a worker that
 * takes a job wakes an idle one, so a backlog spreads over all of them while an idle process polls
 * each queue about once a second whatever its concurrency.
 */
const SPARE_POLL_SECONDS = 10;

interface Worker {
  id?: string;
  busy: boolean;
}

/** Jobs on PostgreSQL: each job runs once across every server process sharing the database. */
@injectable()
export class PgBossJobService extends BaseJobService {
  private readonly config: KernelConfig;
  private loaded: Promise<PgBoss> | undefined;
  private started = false;
  /** Jobs enqueued before start (by a plugin's start hook), sent once the queues exist. */
  private early: (() => Promise<void>)[] = [];
  /** Per job name: one pg-boss worker per job it may run at once, each fetching and settling one job. */
  private readonly workers = new Map<string, Worker[]>();

  constructor(@inject(kernelTokens.config) config: KernelConfig, @inject(kernelTokens.logger) log: Logger) {
    super(log);
    this.config = config;
  }

  /** pg-boss is an optional peer dependency: imported when a PostgreSQL kernel first needs it. */
  private get boss(): Promise<PgBoss> {
    this.loaded ??= import('pg-boss').then(({ default: PgBossClass }) => {
      const boss = new PgBossClass({ connectionString: this.config.databaseUrl!, schema: 'forgekit_jobs', max: 4 });
      boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
      return boss;
    });
    return this.loaded;
  }

  async enqueue<D>(name: string, data?: D, options: EnqueueOptions = {}) {
    this.handler(name);
    if (!this.started) {
      this.early.push(() => this.send(name, data, options));
      return;
    }
    await this.send(name, data, options);
  }

  private async send<D>(name: string, data: D | undefined, options: EnqueueOptions) {
    await (await this.boss).send(queueName(name), (data ?? {}) as object, {
      singletonKey: options.singletonKey,
      startAfter: options.startAfter,
      // pg-boss refuses a retry option present but undefined.
      ...(options.retryLimit !== undefined && { retryLimit: options.retryLimit }),
      ...(options.retryDelay !== undefined && { retryDelay: options.retryDelay }),
      ...(options.retryBackoff !== undefined && { retryBackoff: options.retryBackoff }),
    });
    await this.wakeIdleWorker(name);
  }

  /** Makes an idle worker of the job fetch now rather than at its next poll. */
  private async wakeIdleWorker(name: string) {
    const idle = this.workers.get(name)?.find((worker) => worker.id && !worker.busy);
    if (idle?.id) (await this.boss).notifyWorker(idle.id);
  }

  async start(schedules: Record<string, readonly string[]>) {
    this.checkSchedules(schedules);
    const boss = await this.boss;
    await boss.start();
    this.started = true;
    for (const [name, handler] of this.handlers) {
      const queue = queueName(name);
      await boss.createQueue(queue);
      const workers = Array.from({ length: this.concurrency.get(name)! }, (): Worker => ({ busy: false }));
      this.workers.set(name, workers);
      for (const [index, worker] of workers.entries()) {
        const pollingIntervalSeconds = index === 0 ? POLL_SECONDS : SPARE_POLL_SECONDS;
        // A worker fetches one job at a time, so pg-boss completes or fails (and retries) each job alone.
        worker.id = await boss.work(queue, { pollingIntervalSeconds }, async (jobs) => {
          worker.busy = true;
          try {
            await this.wakeIdleWorker(name);
            for (const job of jobs) await handler(job.data);
          } finally {
            worker.busy = false;
          }
        });
      }
    }
    for (const [cron, names] of Object.entries(schedules)) {
      for (const name of names) await boss.schedule(queueName(name), cron, {});
    }
    for (const send of this.early.splice(0)) await send();
  }

  async stop(graceMs = JOB_STOP_GRACE_MS) {
    if (this.started) await (await this.boss).stop({ graceful: true, wait: true, timeout: graceMs });
  }
}
