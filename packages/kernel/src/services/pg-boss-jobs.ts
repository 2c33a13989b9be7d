import PgBoss from 'pg-boss';
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
  private readonly boss: PgBoss;
  private started = false;

  constructor(@inject(kernelTokens.config) config: KernelConfig, @inject(kernelTokens.logger) log: Logger) {
    super(log);
    this.boss = new PgBoss({ connectionString: config.databaseUrl!, schema: 'forgekit_jobs', max: 4 });
    this.boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
  }

  async enqueue<D>(name: string, data?: D, options: EnqueueOptions = {}) {
    this.handler(name);
    await this.boss.send(queueName(name), (data ?? {}) as object, {
      singletonKey: options.singletonKey,
      startAfter: options.startAfter,
    });
  }

  async start(schedules: Record<string, readonly string[]>) {
    this.checkSchedules(schedules);
    await this.boss.start();
    this.started = true;
    for (const [name, handler] of this.handlers) {
      const queue = queueName(name);
      await this.boss.createQueue(queue);
      await this.boss.work(queue, { pollingIntervalSeconds: 1 }, async (jobs) => {
        for (const job of jobs) await handler(job.data);
      });
    }
    for (const [cron, names] of Object.entries(schedules)) {
      for (const name of names) await this.boss.schedule(queueName(name), cron, {});
    }
  }

  async stop() {
    if (this.started) await this.boss.stop({ graceful: true, wait: true, timeout: 30_000 });
  }
}
