/**
 * No answered write is lost when the process dies in the middle of a group: a second
 * process (crash-writer.process.test.ts) writes from eight concurrent writers and records
 * each answer as it gets it; this test kills it with SIGKILL while it writes, then finds
 * every answered write in the database and none of the failed ones.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRASH_ENV, CrashItem } from './crash-fixture.js';
import { internalsOf } from './internals.js';
import { openDatabase } from './open-database.js';

const here = dirname(fileURLToPath(import.meta.url));
const repositoryRoot = join(here, '../../../..');
const vitestCli = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

/** The answered names, whole lines only (the last may have been cut by the kill). */
function acknowledged(file: string) {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const lines = text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter(Boolean);
  return {
    written: lines.filter((line) => !line.startsWith('failed ')),
    failed: lines.filter((line) => line.startsWith('failed ')).map((line) => line.slice(7)),
  };
}

/** Live (not zombie) processes of a process group, from Linux's /proc; elsewhere, none known. */
function liveMembers(group: number): number[] {
  if (!existsSync('/proc/self/stat')) return [];
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        // Fields after the command's closing parenthesis: state, ppid, pgrp.
        const [state, , pgrp] = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ');
        return Number(pgrp) === group && state !== 'Z';
      } catch {
        return false; // Ended while listed.
      }
    })
    .map(Number);
}

async function waitForGroupToEnd(group: number) {
  for (let tries = 0; liveMembers(group).length > 0; tries++) {
    if (tries > 1000) throw new Error(`processes of group ${group} still run after SIGKILL: ${liveMembers(group)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a crash in the middle of a group commit', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'forgekit-crash-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('loses no write that was answered', { timeout: 180_000 }, async () => {
    const file = join(dir, 'crash.sqlite');
    const acks = join(dir, 'acks.txt');
    const setup = await openDatabase({ url: file, dataDir: dir, entities: [CrashItem] });
    await internalsOf(setup).knex.schema.createTable('crash_items', (t) => {
      t.increments('id');
      t.string('name', 64).notNullable().unique();
    });
    await setup.insert(CrashItem, { name: 'taken' });
    await setup.close();

    // The child is a vitest run of its own, not a worker of this one. Its writes run in a
    // worker process of that run, so it leads a process group of its own and the whole group
    // is killed: killing the run alone would leave its worker writing on, orphaned.
    const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST') && !key.startsWith('TINYPOOL')));
    const child = spawn(process.execPath, [vitestCli, 'run', '--project', 'forgekit', join(here, 'crash-writer.process.test.ts'), '--reporter=dot'], {
      cwd: repositoryRoot,
      env: { ...env, [CRASH_ENV.database]: file, [CRASH_ENV.acks]: acks },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const killAll = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const output: string[] = [];
    child.stdout.on('data', (chunk) => output.push(String(chunk)));
    child.stderr.on('data', (chunk) => output.push(String(chunk)));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    let ended = false;
    void exited.then(() => (ended = true));
    try {
      // Kill it once it has answered a few hundred writes, whatever it is doing then.
      while (acknowledged(acks).written.length < 300) {
        if (ended) throw new Error(`the writing process ended before it was killed:\n${output.join('')}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      killAll();
      expect(await exited).toBe('SIGKILL');
    } finally {
      killAll();
    }
    // No process of the group writes on after the kill.
    const answeredAtKill = acknowledged(acks).written.length;
    await waitForGroupToEnd(child.pid!);
    expect(acknowledged(acks).written.length).toBe(answeredAtKill);

    const { written, failed } = acknowledged(acks);
    expect(written.length).toBeGreaterThanOrEqual(300);
    const reader = new BetterSqlite(file);
    try {
      const stored = new Set((reader.prepare('select name from crash_items').all() as { name: string }[]).map((row) => row.name));
      expect(written.filter((name) => !stored.has(name))).toEqual([]);
      // A transaction's rows land together; a failed one leaves none.
      const transactions = written.filter((name) => Number(name.split('-')[1]) % 3 !== 0);
      expect(transactions.filter((name) => !stored.has(`${name}-first`))).toEqual([]);
      expect(failed.length).toBeGreaterThan(0);
      expect(failed.filter((name) => stored.has(`${name}-doomed`))).toEqual([]);
    } finally {
      reader.close();
    }
  });
});
