/** Where log lines end up: pino's own destination (sonic-boom) and what it offers beyond `write`. */
export interface LineSink {
  write(text: string): unknown;
  flush?(callback?: (error?: Error) => void): void;
  flushSync?(): void;
}

/** Writers holding lines until the next turn; emptied into their sinks if the process exits first. */
const pending = new Set<LinesPerTurn>();
let exitHookInstalled = false;

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Ahead of pino's own exit hook, which then writes the sink's text synchronously.
  process.prependListener('exit', () => {
    for (const writer of pending) writer.handOver();
  });
}

/**
 * The lines written during one turn of the event loop, handed to `sink` as one text at the
 * next turn: under load, a turn answers dozens of requests, and their access-log lines become
 * one write. sonic-boom, pino's destination, also gathers lines, but it measures the byte
 * length of the text gathered so far on every line, which makes V8 copy that text into one
 * flat string each time: kilobytes of young garbage per line. Joining a turn's lines once
 * avoids that; sonic-boom still does the writing (partial writes, EAGAIN, a closed pipe) and
 * the synchronous flush at exit.
 */
export class LinesPerTurn implements LineSink {
  private lines: string[] = [];
  private readonly handOverSoon = () => this.handOver();

  constructor(private readonly sink: LineSink) {
    installExitHook();
  }

  write(line: string): boolean {
    if (this.lines.length === 0) {
      pending.add(this);
      setImmediate(this.handOverSoon);
    }
    this.lines.push(line);
    return true;
  }

  /** Gives the sink the lines gathered so far, as one text. */
  handOver(): void {
    pending.delete(this);
    if (this.lines.length === 0) return;
    const text = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
    this.lines = [];
    this.sink.write(text);
  }

  flush(callback?: (error?: Error) => void): void {
    this.handOver();
    if (this.sink.flush) this.sink.flush(callback);
    else callback?.();
  }

  flushSync(): void {
    this.handOver();
    this.sink.flushSync?.();
  }
}
