import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/** Structured JSON lines on stdout. */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'forgekit' }, timestamp: pino.stdTimeFunctions.isoTime });
}
