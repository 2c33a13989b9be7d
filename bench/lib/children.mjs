/** Child processes and temp dirs the bench owns, removed on exit, on errors and on Ctrl-C. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const children = new Set();
const tempDirs = new Set();

export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

/** Spawns a child that is killed when the bench ends, however it ends. */
export function spawnOwned(command, args, options) {
  const child = spawn(command, args, options);
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** A loopback port nobody listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Polls `url` until it answers 200; fails early if `child` exits first. */
export async function waitUntilReady(url, child, { timeoutMs = 30_000, describe = () => '' } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${url} exited before it was ready (code ${child.exitCode ?? child.signalCode})${describe()}`);
    }
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} was not ready after ${timeoutMs} ms${describe()}`);
}

function killAll(signal) {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
}

function removeTempDirs() {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** Asks children to stop, waits up to `graceMs`, then kills the rest and removes temp dirs. */
export async function cleanup(graceMs = 5_000) {
  const exits = [...children].map((child) => new Promise((resolve) => child.once('exit', resolve)));
  killAll('SIGTERM');
  const timer = setTimeout(() => killAll('SIGKILL'), graceMs);
  await Promise.all(exits);
  clearTimeout(timer);
  removeTempDirs();
}

let installed = false;

/** Ctrl-C, SIGTERM and a crashing bench all end with no children and no temp dirs left. */
export function cleanupOnExit() {
  if (installed) return;
  installed = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () => {
      console.error(`\n${signal}: stopping child processes`);
      cleanup(2_000).finally(() => process.exit(130));
    });
  }
  // Last resort for paths that skip the async cleanup (process.exit, a throw during exit).
  process.once('exit', () => {
    killAll('SIGKILL');
    removeTempDirs();
  });
}

/** Runs a bench script's `main`, printing a failure and always cleaning up. */
export async function runOwned(main) {
  cleanupOnExit();
  try {
    await main();
  } catch (error) {
    console.error(error instanceof Error ? error.stack : error);
    process.exitCode = 1;
  } finally {
    await cleanup();
  }
}
