/**
 * AsciiDoc to HTML with asciidoctor.js, in a worker thread. asciidoctor.js runs on the Opal
 * runtime, which adds `$`-prefixed methods to `String.prototype` and other built-ins of the
 * realm that loads it; a `node:worker_threads` worker has built-ins of its own, so the
 * server's stay as JavaScript defines them.
 *
 * One worker, started by the first AsciiDoc page. A render that takes longer than the timeout
 * (a page written to be slow) stops the worker, which the next page starts afresh; at most
 * `maxQueued` renders wait for it. A render that fails, waits past the timeout or finds the
 * queue full answers null, and the caller shows the page's text escaped instead.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** The worker: asciidoctor.js in secure mode (no includes, no file or network access). */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const asciidoctor = require(workerData.asciidoctor)();
parentPort.on('message', ({ id, text }) => {
  let html = null;
  try {
    html = asciidoctor.convert(text, { safe: 'secure', attributes: { showtitle: true } });
  } catch {}
  parentPort.postMessage({ id, html: typeof html === 'string' ? html : null });
});
`;

export interface AsciidocLimits {
  /** Milliseconds one render may take. */
  timeoutMs: number;
  /** Renders that may wait for the worker at once. */
  maxQueued: number;
}

export const DEFAULT_ASCIIDOC_LIMITS: AsciidocLimits = { timeoutMs: 5_000, maxQueued: 32 };

interface Pending {
  resolve(html: string | null): void;
  timer: NodeJS.Timeout;
}

export function createAsciidocRenderer(limits: AsciidocLimits = DEFAULT_ASCIIDOC_LIMITS) {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  /** Stops the worker; what waited for it answers null. */
  async function stop(): Promise<void> {
    const stopped = worker;
    worker = null;
    for (const { resolve, timer } of pending.values()) {
      clearTimeout(timer);
      resolve(null);
    }
    pending.clear();
    await stopped?.terminate();
  }

  function start(): Worker {
    const asciidoctor = createRequire(import.meta.url).resolve('@asciidoctor/core');
    const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { asciidoctor }, resourceLimits: { maxOldGenerationSizeMb: 256 } });
    // An idle worker does not keep the process running.
    started.unref();
    started.on('message', ({ id, html }: { id: number; html: string | null }) => {
      const waiting = pending.get(id);
      if (!waiting) return;
      pending.delete(id);
      clearTimeout(waiting.timer);
      waiting.resolve(html);
    });
    const gone = () => {
      if (worker === started) void stop();
    };
    started.on('error', gone);
    started.on('exit', gone);
    return started;
  }

  return {
    /** The page's HTML as asciidoctor.js writes it (not yet sanitised), or null. */
    render(text: string): Promise<string | null> {
      if (pending.size >= limits.maxQueued) return Promise.resolve(null);
      worker ??= start();
      const running = worker;
      const id = ++nextId;
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          if (pending.has(id) && worker === running) void stop();
        }, limits.timeoutMs);
        timer.unref();
        pending.set(id, { resolve, timer });
        running.postMessage({ id, text });
      });
    },

    /** Stops the worker (at shutdown). */
    close: () => stop(),
  };
}

export type AsciidocRenderer = ReturnType<typeof createAsciidocRenderer>;
