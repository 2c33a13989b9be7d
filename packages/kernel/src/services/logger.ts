import { pino, type DestinationStream, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/** Structured JSON lines on stdout, or on `destination`. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'forgekit' }, timestamp: pino.stdTimeFunctions.isoTime };
  return destination ? pino(options, destination) : pino(options);
}
