#!/usr/bin/env node
/** The `forgekit` command (see cli-commands.ts; `forgekit --help`). */
import { holdYoungGeneration } from './young-generation.js';

// Before the server's modules load: they are part of what booting allocates (see young-generation.ts).
holdYoungGeneration();
const { runCli } = await import('./cli-commands.js');

// `serve` resolves once the server runs, and the process serves on; every other command ends here.
process.exitCode = await runCli(process.argv.slice(2));
