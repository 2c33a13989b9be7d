#!/usr/bin/env node
/** The `forgekit` command (see cli-commands.ts; `forgekit --help`). */
import { runCli } from './cli-commands.js';

// `serve` resolves once the server runs, and the process serves on; every other command ends here.
process.exitCode = await runCli(process.argv.slice(2));
