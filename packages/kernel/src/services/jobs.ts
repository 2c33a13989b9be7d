/**
 * Background jobs. Plugins say what runs (`define`); the host config says when
 * (`schedules`). In-process on SQLite; pg-boss on PostgreSQL, so that several
 * server processes never run the same job twice.
 */
import { Cron } from 'croner';
import { inject, injectable } from '../plugin/registry.js';
import { kernelTokens } from '../plugin/kernel-tokens.js';
import type { Logger } from './logger.js';

export type JobHandler<D = any> = (data: D) => Promise<void>;

export interface EnqueueOptions {
  /** At most one queued or running job with this key. */
  singletonKey?: string;
  startAfter?: Date;
}

export interface JobService {
  define<D = unknown>(name: string, handler: JobHandler<D>): void;
  enqueue<D = unknown>(name: string, data?: D, options?: EnqueueOptions): Promise<void>;
  /** Runs a defined job now, in this process, and waits for it (tests and the CLI). */
  run<D = unknown>(name: string, data?: D): Promise<void>;
  start(schedules: Record<string, readonly string[]>): Promise<void>;
  /** Fails as `start` would for `schedules` (an unknown job, a bad cron expression), starting nothing. */
  checkSchedules(schedules: Record<string, readonly string[]>): void;
  /** Stops taking jobs and waits for the running ones. */
  stop(): Promise<void>;
  readonly names: readonly string[];
}

export abstract class BaseJobService implements JobService {
  protected readonly handlers = new Map<string, JobHandler>();
  constructor(protected readonly log: Logger) {}

  get names() {
    return [...this.handlers.keys()];
  }

  define<D>(name: string, handler: JobHandler<D>) {
    if (!/^[a-z0-9-]+:[a-z0-9-]+$/.test(name)) throw new Error(`Job name '${name}' must look like '<plugin-id>:<job>'`);
    if (this.handlers.has(name)) throw new Error(`Job '${name}' is defined twice`);
    this.handlers.set(name, handler as JobHandler);
  }

  protected handler(name: string): JobHandler {
    const handler = this.handlers.get(name);
    if (!handler) throw new Error(`Unknown job '${name}' (defined: ${this.names.join(', ') || 'none'})`);
    return handler;
  }

  async run<D>(name: string, data?: D) {
    await this.handler(name)(data);
  }

  checkSchedules(schedules: Record<string, readonly string[]>) {
    for (const [cron, names] of Object.entries(schedules)) {
      for (const name of names) this.handler(name);
      new Cron(cron, { paused: true }).stop();
    }
  }

  abstract enqueue<D>(name: string, data?: D, options?: EnqueueOptions): Promise<void>;
  abstract start(schedules: Record<string, readonly string[]>): Promise<void>;
  abstract stop(): Promise<void>;
}

@injectable()
export class InProcessJobService extends BaseJobService {
  private readonly running = new Set<Promise<void>>();
  private readonly singletons = new Set<string>();
  private readonly crons: Cron[] = [];
  private stopped = false;

  constructor(@inject(kernelTokens.logger) log: Logger) {
    super(log);
  }

  async enqueue<D>(name: string, data?: D, options: EnqueueOptions = {}) {
    const handler = this.handler(name);
    if (this.stopped) throw new Error(`Job service is stopped; '${name}' was not queued`);
    const key = options.singletonKey ? `${name}/${options.singletonKey}` : null;
    if (key && this.singletons.has(key)) return;
    if (key) this.singletons.add(key);
    const delay = options.startAfter ? Math.max(0, options.startAfter.getTime() - Date.now()) : 0;
    const task = new Promise<void>((resolve) => setTimeout(resolve, delay))
      .then(() => handler(data))
      .catch((error) => this.log.error({ err: error, job: name }, 'job failed'))
      .finally(() => {
        if (key) this.singletons.delete(key);
        this.running.delete(task);
      });
    this.running.add(task);
  }

  async start(schedules: Record<string, readonly string[]>) {
    this.checkSchedules(schedules);
    for (const [cron, names] of Object.entries(schedules)) {
      this.crons.push(
        new Cron(cron, { protect: true }, async () => {
          for (const name of names) await this.enqueue(name, {}, { singletonKey: 'schedule' });
        }),
      );
    }
  }

  async stop() {
    this.stopped = true;
    for (const cron of this.crons) cron.stop();
    await Promise.all([...this.running]);
  }
}
