import { destination as pinoDestination, pino, symbols as pinoSymbols, type DestinationStream, type Logger as PinoLogger } from 'pino';
import { LinesPerTurn } from './lines-per-turn.js';

export type Logger = PinoLogger;

/**
 * Lines gathered before one write to stdout (a turn's lines arrive together, see
 * `LinesPerTurn`): under load one write carries dozens of access-log lines instead of one
 * each, and a quiet server writes what it has every `FLUSH_INTERVAL_MS`.
 * Whatever is gathered is written synchronously when the process exits (pino registers that).
 * A worker thread has no `process.stdout.fd`: it writes to descriptor 1, as pino does by default.
 */
const BUFFERED_BYTES = 4096;
const FLUSH_INTERVAL_MS = 100;

/**
 * pino's `isoTime`, formatted once per millisecond: a busy server writes several lines in the
 * same millisecond (an access-log line per request), each formatting the same date anew.
 */
function isoTimeByMillisecond(): () => string {
  let at = Number.NaN;
  let text = '';
  return () => {
    const now = Date.now();
    if (now !== at) {
      at = now;
      text = `,"time":"${new Date(now).toISOString()}"`;
    }
    return text;
  };
}

/** Structured JSON lines on stdout, or on `destination`. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'forgekit' }, timestamp: isoTimeByMillisecond() };
  return pino(
    options,
    destination ??
      new LinesPerTurn(pinoDestination({ dest: process.stdout.fd ?? 1, sync: false, minLength: BUFFERED_BYTES, periodicFlush: FLUSH_INTERVAL_MS })),
  );
}

const {
  streamSym,
  chindingsSym,
  lsCacheSym,
  timeSym,
  endSym,
  mixinSym,
  hooksSym,
  formattersSym,
  stringifiersSym,
  serializersSym,
  messageKeySym,
  nestedKeySym,
  msgPrefixSym,
  needsMetadataGsym,
} = pinoSymbols as unknown as Record<string, symbol>;

/**
 * A writer of info lines whose properties are given already as JSON (`,"key":value…`), for
 * the access log's line per request: the same line pino writes for `log.info(object, msg)`,
 * without pino walking and typing each property of a fresh object. Null when the logger
 * shapes its lines itself (mixins, hooks, formatters, redaction, serializers of `keys`, a
 * nested key): those go through `log.info`. pino has no public API for a preformatted line.
 */
export function preformattedInfo(log: Logger, keys: readonly string[], msg: string): ((properties: string) => void) | null {
  const internals = log as unknown as Record<symbol, any>;
  const stream = internals[streamSym] as { write(line: string): unknown } | undefined;
  const plain =
    stream !== undefined &&
    typeof stream.write === 'function' &&
    (stream as Record<symbol, unknown>)[needsMetadataGsym] !== true &&
    internals[mixinSym] == null &&
    internals[hooksSym]?.logMethod == null &&
    internals[hooksSym]?.streamWrite == null &&
    internals[formattersSym]?.log == null &&
    internals[nestedKeySym] == null &&
    internals[msgPrefixSym] == null &&
    internals[messageKeySym] === 'msg' &&
    Object.getOwnPropertySymbols(internals[stringifiersSym] ?? {}).length === 0 &&
    Object.keys(internals[stringifiersSym] ?? {}).length === 0 &&
    keys.every((key) => !internals[serializersSym]?.[key]);
  if (!plain) return null;
  const tail = `,"msg":${JSON.stringify(msg)}${internals[endSym]}`;
  const writable = stream;
  return (properties) => {
    // Read per line: the level may change at run time, and a child logger's bindings are its own.
    writable.write(internals[lsCacheSym][30] + internals[timeSym]() + internals[chindingsSym] + properties + tail);
  };
}
