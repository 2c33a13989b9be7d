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
  /**
   * How many times a job whose handler throws runs again (pg-boss's `retryLimit`). Unset: pg-boss's
   * default on PostgreSQL, none in-process.
   */
  retryLimit?: number;
  /** Seconds before a retry (pg-boss's `retryDelay`). */
  retryDelay?: number;
  /** Doubles the delay on each retry, with jitter, as pg-boss's `retryBackoff` does. */
  retryBackoff?: boolean;
}

/**
 * The wait before retry number `retry` (1 for the first), in milliseconds: pg-boss's formula, so
 * that both job services wait alike. With backoff, `delay · 2^(retry-1)` plus up to as much again
 * at random (the delay is at least one second); without, the delay itself.
 */
export function retryWaitMs(options: Pick<EnqueueOptions, 'retryDelay' | 'retryBackoff'>, retry: number, random = Math.random()) {
  if (!options.retryBackoff) return (options.retryDelay ?? 0) * 1000;
  const step = Math.max(options.retryDelay ?? 0, 1) * 2 ** (Math.min(16, retry) - 1);
  return (step + step * random) * 1000;
}

export interface JobOptions {
  /** How many jobs of this name one process runs at once (default 1). */
  concurrency?: number;
}

export interface JobService {
  define<D = unknown>(name: string, handler: JobHandler<D>, options?: JobOptions): void;
  enqueue<D = unknown>(name: string, data?: D, options?: EnqueueOptions): Promise<void>;
  /** Runs a defined job now, in this process, and waits for it (tests and the CLI). */
  run<D = unknown>(name: string, data?: D): Promise<void>;
  start(schedules: Record<string, readonly string[]>): Promise<void>;
  /** Fails as `start` would for `schedules` (an unknown job, a bad cron expression), starting nothing. */
  checkSchedules(schedules: Record<string, readonly string[]>): void;
  /**
   * Stops taking jobs and waits for the running ones, at most `graceMs` (default
   * `JOB_STOP_GRACE_MS`): a backlog cannot hold a stopping process for ever.
   */
  stop(graceMs?: number): Promise<void>;
  readonly names: readonly string[];
}

/** How long a stopping job service waits for its jobs: pg-boss's own default stop timeout. */
export const JOB_STOP_GRACE_MS = 30_000;

/** Thrown by `enqueue` once the service stops; a job kept in a table of its own is recovered at the next start. */
export class JobServiceStoppedError extends Error {
  constructor(readonly job: string) {
    super(`Job service is stopped; '${job}' was not queued`);
    this.name = 'JobServiceStoppedError';
  }
}

export abstract class BaseJobService implements JobService {
  protected readonly handlers = new Map<string, JobHandler>();
  protected readonly concurrency = new Map<string, number>();
  constructor(protected readonly log: Logger) {}

  get names() {
    return [...this.handlers.keys()];
  }

  define<D>(name: string, handler: JobHandler<D>, options: JobOptions = {}) {
    if (!/^[a-z0-9-]+:[a-z0-9-]+$/.test(name)) throw new Error(`Job name '${name}' must look like '<plugin-id>:<job>'`);
    if (this.handlers.has(name)) throw new Error(`Job '${name}' is defined twice`);
    const concurrency = options.concurrency ?? 1;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`Job '${name}' needs a concurrency of at least 1`);
    this.handlers.set(name, handler as JobHandler);
    this.concurrency.set(name, concurrency);
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
  abstract stop(graceMs?: number): Promise<void>;
}

@injectable()
export class InProcessJobService extends BaseJobService {
  private readonly running = new Set<Promise<void>>();
  private readonly singletons = new Set<string>();
  /** Per job name: how many run now, and the jobs waiting for one of them to end (told false when dropped). */
  private readonly slots = new Map<string, { active: number; waiting: ((run: boolean) => void)[] }>();
  private readonly crons: Cron[] = [];
  /** Cancels the waits of retries not yet due. */
  private readonly waits = new Set<() => void>();
  private stopped = false;

  constructor(@inject(kernelTokens.logger) log: Logger) {
    super(log);
  }

  async enqueue<D>(name: string, data?: D, options: EnqueueOptions = {}) {
    const handler = this.handler(name);
    if (this.stopped) throw new JobServiceStoppedError(name);
    const key = options.singletonKey ? `${name}/${options.singletonKey}` : null;
    if (key && this.singletons.has(key)) return;
    if (key) this.singletons.add(key);
    const delay = options.startAfter ? Math.max(0, options.startAfter.getTime() - Date.now()) : 0;
    const attempts = 1 + Math.max(0, options.retryLimit ?? 0);
    const attempt = async (retry: number): Promise<void> => {
      try {
        await this.inSlot(name, () => handler(data));
      } catch (error) {
        if (retry + 1 >= attempts) throw error;
        this.log.warn({ err: error, job: name, retry: retry + 1 }, 'job failed, retrying');
        if (!(await this.pause(retryWaitMs(options, retry + 1)))) throw error;
        return attempt(retry + 1);
      }
    };
    // A start not yet due is dropped on stop, as a retry is.
    const task = this.pause(delay)
      .then((due) => (due ? attempt(0) : undefined))
      .catch((error) => this.log.error({ err: error, job: name }, 'job failed'))
      .finally(() => {
        if (key) this.singletons.delete(key);
        this.running.delete(task);
      });
    this.running.add(task);
  }

  /** Runs `work` once fewer than the job's concurrency of that name run; a retry waits outside its slot, as on pg-boss. */
  private async inSlot(name: string, work: () => Promise<void>) {
    const slot = this.slots.get(name) ?? { active: 0, waiting: [] };
    this.slots.set(name, slot);
    if (slot.active < this.concurrency.get(name)!) slot.active += 1;
    else if (!(await new Promise<boolean>((resolve) => slot.waiting.push(resolve)))) return;
    try {
      await work();
    } finally {
      // The slot passes to the next waiting job, if any.
      const next = slot.waiting.shift();
      if (next) next(true);
      else slot.active -= 1;
    }
  }

  /**
   * Waits `ms` before a start or a retry; false when the service stops first (a job not yet due is
   * dropped, as a process that ends loses it). A retry without a delay runs as part of the running job.
   */
  private pause(ms: number) {
    if (ms <= 0) return Promise.resolve(true);
    if (this.stopped) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.waits.delete(cancel);
        resolve(true);
      }, ms);
      const cancel = () => {
        clearTimeout(timer);
        resolve(false);
      };
      this.waits.add(cancel);
    });
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

  /**
   * Runs the queue down for at most `graceMs`. Then the jobs still waiting for a slot are dropped and
   * the running ones are left to the process's end, as pg-boss's stop timeout leaves them.
   */
  async stop(graceMs = JOB_STOP_GRACE_MS) {
    this.stopped = true;
    for (const cron of this.crons) cron.stop();
    for (const cancel of this.waits) cancel();
    this.waits.clear();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<true>((resolve) => (timer = setTimeout(resolve, graceMs, true)));
    const overdue = await Promise.race([Promise.all([...this.running]).then(() => false as const), late]);
    clearTimeout(timer);
    if (!overdue) return;
    const dropped: Record<string, number> = {};
    const running: Record<string, number> = {};
    for (const [name, slot] of this.slots) {
      if (slot.waiting.length > 0) dropped[name] = slot.waiting.length;
      if (slot.active > 0) running[name] = slot.active;
      for (const wake of slot.waiting.splice(0)) wake(false);
    }
    this.log.warn({ dropped, running, graceMs }, 'job service stopped before its queue ran down');
  }
}
