#!/usr/bin/env node
/** `node dist/main.js [--workers N]`: the built server, as `forgekit serve` runs it. */
import { parseArgs } from 'node:util';
import { holdYoungGeneration } from './young-generation.js';

// Before the server's modules load: they are part of what booting allocates.
holdYoungGeneration();
const { SERVE_USAGE, serve, workerCount } = await import('./serve.js');

let values: { workers?: string; help?: boolean };
try {
  ({ values } = parseArgs({ options: { workers: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${SERVE_USAGE}\n`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(`${SERVE_USAGE}\n`);
  process.exit(0);
}
const workers = workerCount(values.workers);
if (typeof workers === 'string') {
  process.stderr.write(`${workers}\n${SERVE_USAGE}\n`);
  process.exit(2);
}
await serve(workers);
