import { destination as pinoDestination, pino, type DestinationStream, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/**
 * Lines gathered before one write to stdout: under load one write carries a dozen access-log
 * lines instead of one each, and a quiet server writes what it has every `FLUSH_INTERVAL_MS`.
 * Whatever is gathered is written synchronously when the process exits (pino registers that).
 * A worker thread has no `process.stdout.fd`: it writes to descriptor 1, as pino does by default.
 */
const BUFFERED_BYTES = 4096;
const FLUSH_INTERVAL_MS = 100;

/** Structured JSON lines on stdout, or on `destination`. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'forgekit' }, timestamp: pino.stdTimeFunctions.isoTime };
  return pino(
    options,
    destination ?? pinoDestination({ dest: process.stdout.fd ?? 1, sync: false, minLength: BUFFERED_BYTES, periodicFlush: FLUSH_INTERVAL_MS }),
  );
}
