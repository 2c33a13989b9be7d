#!/usr/bin/env node
/**
 * `forgekit token create [--username root] [--name cli] [--scopes api,sudo] [--expires-at YYYY-MM-DD]`
 * `forgekit migrate`
 * `forgekit config check`
 * `forgekit iteration-cadences list|create|update|delete|schedule --group <path> …`
 */
import { parseArgs } from 'node:util';
import { createKernel, loadConfig, type Kernel } from '@forgekit/kernel';
import { ALL_SCOPES, coreTokensRef, coreUsersRef, ensureRootUser, ROOT_USERNAME } from '@forgekit/plugin-core';
import { ITERATION_CADENCES_USAGE, iterationCadencesCommand } from './iteration-cadences-cli.js';
import { allPlugins } from './plugins.js';

const USAGE = `Usage:
  forgekit token create [--username root] [--name NAME] [--scopes api,read_user] [--expires-at YYYY-MM-DD]
  forgekit migrate
  forgekit config check
${ITERATION_CADENCES_USAGE}`;

async function boot(): Promise<Kernel> {
  const config = loadConfig({ plugins: allPlugins });
  return createKernel({ plugins: allPlugins, config: { ...config, logLevel: 'warn' } });
}

async function createToken(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      username: { type: 'string', default: ROOT_USERNAME },
      name: { type: 'string', default: 'cli' },
      scopes: { type: 'string' },
      'expires-at': { type: 'string' },
    },
  });
  const kernel = await boot();
  try {
    const users = kernel.resolve(coreUsersRef);
    const user = values.username === ROOT_USERNAME ? await ensureRootUser(users) : await users.findByUsername(values.username!);
    if (!user) throw new Error(`No user named '${values.username}'`);
    const scopes = values.scopes ? values.scopes.split(',').map((scope) => scope.trim()) : [...ALL_SCOPES];
    const unknown = scopes.filter((scope) => !(ALL_SCOPES as readonly string[]).includes(scope));
    if (unknown.length > 0) throw new Error(`Unknown scopes: ${unknown.join(', ')}`);
    const { secret } = await kernel.resolve(coreTokensRef).create({ userId: user.id, name: values.name!, scopes, expiresAt: values['expires-at'] ?? null });
    process.stdout.write(`${secret}\n`);
  } finally {
    await kernel.stop();
  }
}

async function main(argv: string[]) {
  const [command, sub, ...rest] = argv;
  if (command === 'token' && sub === 'create') return createToken(rest);
  if (command === 'iteration-cadences') {
    const kernel = await boot();
    try {
      process.stdout.write(`${await iterationCadencesCommand(kernel, sub, rest)}\n`);
    } finally {
      await kernel.stop();
    }
    return;
  }
  if (command === 'migrate' || (command === 'config' && sub === 'check')) {
    // Booting validates every config section and applies pending migrations.
    const kernel = await boot();
    await kernel.stop();
    process.stdout.write(command === 'migrate' ? 'migrations are up to date\n' : 'config is valid\n');
    return;
  }
  process.stderr.write(`${USAGE}\n`);
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
