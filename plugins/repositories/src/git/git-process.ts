/**
 * One long-lived git process spoken to over its stdin and stdout: requests are written in
 * order and their answers read back in the same order, so several may be in flight at once.
 * While no answer is awaited the process holds no reference on the event loop.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { GitCommandError, spawnGit } from './git-runner.js';

/** Reads one answer from the start of the output: its length and value, or null until more arrives. */
export type AnswerReader<T> = (output: Buffer) => { length: number; value: T } | null;

interface Pending {
  read: AnswerReader<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** What a process wrote to stderr, kept for the error of a process that died. */
const STDERR_KEPT = 16 * 1024;

type Referenced = { ref?(): void; unref?(): void };

export class GitProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private output: Buffer = Buffer.alloc(0);
  private readonly pending: Pending[] = [];
  private stderr = '';
  private ended = false;
  private exited = false;
  /** Resolves once the process has exited. */
  readonly closed: Promise<void>;

  constructor(
    gitDir: string,
    private readonly args: readonly string[],
  ) {
    this.child = spawnGit(gitDir, args);
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.output = this.output.length === 0 ? chunk : Buffer.concat([this.output, chunk]);
      this.answer();
    });
    this.child.stderr.on('data', (chunk: Buffer) => {
      if (this.stderr.length < STDERR_KEPT) this.stderr += chunk.toString('utf8');
    });
    this.child.stdin.on('error', () => undefined);
    this.closed = new Promise<void>((resolve) => {
      const finish = (code: number | null) => {
        if (this.exited) return;
        this.exited = true;
        const error = new GitCommandError(this.args, code, this.stderr || 'the process exited');
        for (const waiting of this.pending.splice(0)) waiting.reject(error);
        resolve();
      };
      this.child.once('error', () => finish(null));
      this.child.once('close', (code) => finish(code));
    });
    this.hold(false);
  }

  /** Whether the process still takes requests. */
  get usable(): boolean {
    return !this.exited && !this.ended;
  }

  /** Whether answers are awaited. */
  get busy(): boolean {
    return this.pending.length > 0;
  }

  /** Writes a request; resolves with its answer, or rejects when the process dies first. */
  request<T>(input: Buffer | string, read: AnswerReader<T>): Promise<T> {
    if (!this.usable) return Promise.reject(new GitCommandError(this.args, null, 'the process has finished'));
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ read, resolve: resolve as (value: unknown) => void, reject });
      this.hold(true);
      this.child.stdin.write(input);
    });
  }

  /** Takes no more requests: writes `last` (a closing command), ends stdin and waits for the exit. */
  finish(last = ''): Promise<void> {
    if (this.usable) {
      this.ended = true;
      this.child.stdin.end(last);
    }
    return this.closed;
  }

  private answer() {
    while (this.pending.length > 0) {
      const answer = this.pending[0]!.read(this.output);
      if (!answer) return;
      this.output = this.output.subarray(answer.length);
      this.pending.shift()!.resolve(answer.value);
    }
    this.hold(false);
  }

  /** Keeps the event loop alive only while answers are awaited. */
  private hold(on: boolean) {
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as Referenced[]) {
      if (on) handle.ref?.();
      else handle.unref?.();
    }
  }
}

/** An answer of `count` newline-ended lines (newlines removed). */
export function lines(count: number): AnswerReader<string[]> {
  return (output) => {
    const found: string[] = [];
    let offset = 0;
    while (found.length < count) {
      const end = output.indexOf(0x0a, offset);
      if (end === -1) return null;
      found.push(output.toString('utf8', offset, end));
      offset = end + 1;
    }
    return { length: offset, value: found };
  };
}

/** An answer that runs up to a line holding exactly `marker` (the marker line not included). */
export function upTo(marker: string): AnswerReader<Buffer> {
  const line = Buffer.from(`${marker}\n`);
  return (output) => {
    const at = output.indexOf(line);
    if (at === -1) return null;
    return { length: at + line.length, value: output.subarray(0, at) };
  };
}
