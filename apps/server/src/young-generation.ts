/**
 * V8 grows its young generation (the semi-spaces new objects are made in) whenever many
 * objects survive a scavenge, and keeps it, resident, while the process idles. Booting keeps
 * most of what it allocates (every plugin's modules, the route tables, migrations), so it
 * would grow the young generation to its maximum (32 MB) before the first request. Holding
 * it at its initial size while booting, then letting it grow, leaves that memory to load:
 * there a large young generation lets the short-lived strings of responses die young rather
 * than be promoted and swept by mark-compact pauses.
 */
import { setFlagsFromString } from 'node:v8';

/** V8's own default factor. */
const DEFAULT_GROWTH_FACTOR = 2;

const GROWTH_FLAG = 'semi-space-growth-factor';
/** A factor the operator set (`node --semi-space-growth-factor=...` or `NODE_OPTIONS`) is theirs to keep. */
const setByOperator = () => process.execArgv.some((arg) => arg.includes(GROWTH_FLAG)) || (process.env.NODE_OPTIONS ?? '').includes(GROWTH_FLAG);

/** Keeps the young generation at its initial size until `releaseYoungGeneration()`. */
export function holdYoungGeneration(): void {
  if (!setByOperator()) setFlagsFromString(`--${GROWTH_FLAG}=1`);
}

/** Lets the young generation grow again, as load needs it. */
export function releaseYoungGeneration(): void {
  if (!setByOperator()) setFlagsFromString(`--${GROWTH_FLAG}=${DEFAULT_GROWTH_FACTOR}`);
}
