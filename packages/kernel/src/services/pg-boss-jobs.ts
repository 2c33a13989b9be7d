import type PgBoss from 'pg-boss';
import { inject, injectable } from '../plugin/registry.js';
import type { KernelConfig } from '../config/kernel-config.js';
import { kernelTokens } from '../plugin/kernel-tokens.js';
import { BaseJobService, type EnqueueOptions } from './jobs.js';
import type { Logger } from './logger.js';

/** pg-boss queue names allow letters, digits, `_`, `-` and `.`; ours use `:`. */
const queueName = (name: string) => name.replace(':', '.');

/** Jobs on PostgreSQL: each job runs once across every server process sharing the database. */
@injectable()
export class PgBossJobService extends BaseJobService {
  private readonly config: KernelConfig;
  private loaded: Promise<PgBoss> | undefined;
  private started = false;
  /** Jobs enqueued before start (by a plugin's start hook), sent once the queues exist. */
  private early: (() => Promise<void>)[] = [];

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
  }

  async start(schedules: Record<string, readonly string[]>) {
    this.checkSchedules(schedules);
    const boss = await this.boss;
    await boss.start();
    this.started = true;
    for (const [name, handler] of this.handlers) {
      const queue = queueName(name);
      await boss.createQueue(queue);
      await boss.work(queue, { pollingIntervalSeconds: 1 }, async (jobs) => {
        for (const job of jobs) await handler(job.data);
      });
    }
    for (const [cron, names] of Object.entries(schedules)) {
      for (const name of names) await boss.schedule(queueName(name), cron, {});
    }
    for (const send of this.early.splice(0)) await send();
  }

  async stop() {
    if (this.started) await (await this.boss).stop({ graceful: true, wait: true, timeout: 30_000 });
  }
}
