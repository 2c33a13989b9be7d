import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { InProcessJobService, JobServiceStoppedError, retryWaitMs } from './jobs.js';

const silent = pino({ level: 'silent' });

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('InProcessJobService', () => {
  it('accepts only <plugin-id>:<job> names', () => {
    const jobs = new InProcessJobService(silent);
    expect(() => jobs.define('core:cleanup', async () => {})).not.toThrow();
    for (const name of ['cleanup', 'Core:cleanup', 'core:clean_up', 'core:a:b', ':a']) {
      expect(() => jobs.define(name, async () => {})).toThrow(`Job name '${name}' must look like '<plugin-id>:<job>'`);
    }
    expect(jobs.names).toEqual(['core:cleanup']);
  });

  it('refuses a name defined twice', () => {
    const jobs = new InProcessJobService(silent);
    jobs.define('core:a', async () => {});
    expect(() => jobs.define('core:a', async () => {})).toThrow("Job 'core:a' is defined twice");
  });

  it('runs a job now with its data and passes failures on', async () => {
    const jobs = new InProcessJobService(silent);
    const seen: unknown[] = [];
    jobs.define('core:a', async (data) => void seen.push(data));
    jobs.define('core:fail', async () => {
      throw new Error('boom');
    });
    await jobs.run('core:a', { id: 1 });
    expect(seen).toEqual([{ id: 1 }]);
    await expect(jobs.run('core:fail')).rejects.toThrow('boom');
    await expect(jobs.run('core:none')).rejects.toThrow("Unknown job 'core:none' (defined: core:a, core:fail)");
  });

  it('runs an enqueued job in the background', async () => {
    const jobs = new InProcessJobService(silent);
    const handler = vi.fn(async () => {});
    jobs.define('core:a', handler);
    await jobs.enqueue('core:a', { id: 2 });
    await jobs.stop();
    expect(handler).toHaveBeenCalledWith({ id: 2 });
  });

  it('refuses to enqueue an unknown job', async () => {
    const jobs = new InProcessJobService(silent);
    await expect(jobs.enqueue('core:none')).rejects.toThrow("Unknown job 'core:none' (defined: none)");
  });

  it('keeps one queued or running job per singleton key', async () => {
    const jobs = new InProcessJobService(silent);
    const gate = deferred();
    const handler = vi.fn(() => gate.promise);
    jobs.define('core:a', handler, { concurrency: 2 });
    await jobs.enqueue('core:a', 1, { singletonKey: 'k' });
    await jobs.enqueue('core:a', 2, { singletonKey: 'k' });
    await jobs.enqueue('core:a', 3, { singletonKey: 'other' });
    await tick();
    expect(handler.mock.calls.map((call: unknown[]) => call[0])).toEqual([1, 3]);
    gate.resolve();
    await tick();
    await jobs.enqueue('core:a', 4, { singletonKey: 'k' });
    await jobs.stop();
    expect(handler.mock.calls.map((call: unknown[]) => call[0])).toEqual([1, 3, 4]);
  });

  it('logs a failed background job instead of throwing', async () => {
    const jobs = new InProcessJobService(silent);
    const error = vi.spyOn(silent, 'error');
    jobs.define('core:fail', async () => {
      throw new Error('boom');
    });
    await jobs.enqueue('core:fail');
    await jobs.stop();
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ job: 'core:fail' }), 'job failed');
    error.mockRestore();
  });

  it('waits for running jobs on stop, then takes no more', async () => {
    const jobs = new InProcessJobService(silent);
    const gate = deferred();
    let finished = false;
    jobs.define('core:slow', async () => {
      await gate.promise;
      finished = true;
    });
    await jobs.enqueue('core:slow');
    await tick();
    const stopping = jobs.stop();
    await tick();
    expect(finished).toBe(false);
    gate.resolve();
    await stopping;
    expect(finished).toBe(true);
    await expect(jobs.enqueue('core:slow')).rejects.toThrow("Job service is stopped; 'core:slow' was not queued");
  });

  it('refuses a concurrency below one', () => {
    const jobs = new InProcessJobService(silent);
    expect(() => jobs.define('core:a', async () => {}, { concurrency: 0 })).toThrow("Job 'core:a' needs a concurrency of at least 1");
  });

  it('runs as many jobs of a name at once as its concurrency, and retries a failing one alone', async () => {
    const jobs = new InProcessJobService(silent);
    const runs: number[] = [];
    const allStarted = deferred();
    jobs.define(
      'core:side-by-side',
      async ({ id }: { id: number }) => {
        runs.push(id);
        if (runs.length === 3) allStarted.resolve();
        // One at a time, the first job would wait here for ever.
        await allStarted.promise;
        if (id === 3 && runs.filter((run) => run === 3).length === 1) throw new Error('first try fails');
      },
      { concurrency: 3 },
    );
    for (const id of [1, 2, 3]) await jobs.enqueue('core:side-by-side', { id }, { retryLimit: 1 });
    await jobs.stop();
    expect(runs).toEqual([1, 2, 3, 3]);
  });

  it('runs the jobs of a name one after another by default, and more only up to the concurrency', async () => {
    const jobs = new InProcessJobService(silent);
    const gates = [deferred(), deferred(), deferred()];
    const started: number[] = [];
    jobs.define('core:one', async (id: number) => {
      started.push(id);
      await gates[id]!.promise;
    });
    jobs.define(
      'core:two',
      async (id: number) => {
        started.push(10 + id);
        await gates[id]!.promise;
      },
      { concurrency: 2 },
    );
    for (const id of [0, 1, 2]) await jobs.enqueue('core:one', id);
    for (const id of [0, 1, 2]) await jobs.enqueue('core:two', id);
    await tick();
    expect(started).toEqual([0, 10, 11]);
    gates[0]!.resolve();
    await tick();
    expect(started).toEqual([0, 10, 11, 1, 12]);
    gates[1]!.resolve();
    gates[2]!.resolve();
    await jobs.stop();
    expect(started).toEqual([0, 10, 11, 1, 12, 2]);
  });

  it('checks schedules on start', async () => {
    const jobs = new InProcessJobService(silent);
    jobs.define('core:a', async () => {});
    await expect(jobs.start({ '* * * * *': ['core:b'] })).rejects.toThrow("Unknown job 'core:b'");
    await expect(jobs.start({ 'not a cron': ['core:a'] })).rejects.toThrow();
    await jobs.stop();
  });

  it('runs a failing job again up to its retry limit, then logs the failure', async () => {
    const jobs = new InProcessJobService(silent);
    const error = vi.spyOn(silent, 'error');
    let calls = 0;
    jobs.define('core:flaky', async () => {
      calls += 1;
      throw new Error(`boom ${calls}`);
    });
    await jobs.enqueue('core:flaky', {}, { retryLimit: 2 });
    await jobs.stop();
    expect(calls).toBe(3);
    expect(error).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledWith(expect.objectContaining({ job: 'core:flaky', err: expect.objectContaining({ message: 'boom 3' }) }), 'job failed');
    error.mockRestore();
  });

  it('stops retrying once the job succeeds, and retries nothing without a limit', async () => {
    const jobs = new InProcessJobService(silent);
    const seen: number[] = [];
    jobs.define('core:second-time', async (data: { id: number }) => {
      seen.push(data.id);
      if (seen.filter((id) => id === data.id).length < 2) throw new Error('not yet');
    });
    await jobs.enqueue('core:second-time', { id: 1 }, { retryLimit: 4 });
    await jobs.enqueue('core:second-time', { id: 2 });
    await jobs.stop();
    expect(seen.sort()).toEqual([1, 1, 2]);
  });

  it('waits the retry delay, and drops a retry not yet due when it stops', async () => {
    vi.useFakeTimers();
    try {
      const jobs = new InProcessJobService(silent);
      let calls = 0;
      jobs.define('core:late', async () => {
        calls += 1;
        throw new Error('boom');
      });
      await jobs.enqueue('core:late', {}, { retryLimit: 3, retryDelay: 30 });
      await vi.advanceTimersByTimeAsync(29_000);
      expect(calls).toBe(1);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(calls).toBe(2);
      await jobs.stop();
      await vi.runAllTimersAsync();
      expect(calls).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('drops a start not yet due when it stops, and stops at once', async () => {
    const jobs = new InProcessJobService(silent);
    const handler = vi.fn(async () => {});
    jobs.define('core:later', handler);
    await jobs.enqueue('core:later', {}, { startAfter: new Date(Date.now() + 3_600_000) });
    const began = Date.now();
    await jobs.stop();
    expect(Date.now() - began).toBeLessThan(1_000);
    expect(handler).not.toHaveBeenCalled();
  });

  it('runs its queue down for the grace time only, then drops what still waits for a slot', async () => {
    const log = pino({ level: 'silent' });
    const warn = vi.spyOn(log, 'warn');
    const jobs = new InProcessJobService(log);
    const gate = deferred();
    const started: number[] = [];
    jobs.define(
      'core:backlog',
      async ({ id }: { id: number }) => {
        started.push(id);
        if (id > 2) await gate.promise;
      },
      { concurrency: 2 },
    );
    for (const id of [1, 2, 3, 4, 5, 6]) await jobs.enqueue('core:backlog', { id });
    await jobs.stop(50);
    // 1 and 2 end, 3 and 4 take their slots and hang; 5 and 6 never start.
    expect(started).toEqual([1, 2, 3, 4]);
    expect(warn).toHaveBeenCalledWith(
      { dropped: { 'core:backlog': 2 }, running: { 'core:backlog': 2 }, graceMs: 50 },
      'job service stopped before its queue ran down',
    );
    gate.resolve();
    await tick();
    expect(started).toEqual([1, 2, 3, 4]);
    await expect(jobs.enqueue('core:backlog', { id: 7 })).rejects.toBeInstanceOf(JobServiceStoppedError);
  });

  it('says nothing when its queue runs down in time', async () => {
    const log = pino({ level: 'silent' });
    const warn = vi.spyOn(log, 'warn');
    const jobs = new InProcessJobService(log);
    const seen: number[] = [];
    jobs.define('core:quick', async ({ id }: { id: number }) => void seen.push(id));
    for (const id of [1, 2, 3]) await jobs.enqueue('core:quick', { id });
    await jobs.stop(1_000);
    expect(seen).toEqual([1, 2, 3]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('waits as pg-boss does: the delay, or with backoff the delay doubled each retry plus up to as much at random', () => {
    expect(retryWaitMs({ retryDelay: 15 }, 3)).toBe(15_000);
    expect(retryWaitMs({}, 1)).toBe(0);
    expect([1, 2, 3, 4].map((retry) => retryWaitMs({ retryDelay: 15, retryBackoff: true }, retry, 0))).toEqual([15_000, 30_000, 60_000, 120_000]);
    expect(retryWaitMs({ retryDelay: 15, retryBackoff: true }, 2, 1)).toBe(60_000);
    // Backoff without a delay starts at one second.
    expect(retryWaitMs({ retryBackoff: true }, 1, 0)).toBe(1_000);
  });
});
