#!/usr/bin/env node
/**
 * Memory of git over HTTP with a large repository: starts the reference server, builds a
 * local repository of random (incompressible) blobs, pushes it into an empty project and
 * clones it back with the git CLI, sampling the server's resident memory (VmRSS in
 * /proc/<pid>/status) all along. Linux only (it reads /proc).
 *
 * Options: --size-mb <n> (200)  --files <n> (40)  --interval-ms <n> (50)
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runOwned, tempDir } from './lib/children.mjs';
import { startForgekit } from './lib/servers.mjs';

const { values: options } = parseArgs({
  options: {
    'size-mb': { type: 'string', default: '200' },
    files: { type: 'string', default: '40' },
    'interval-ms': { type: 'string', default: '50' },
  },
});
const sizeMb = Number(options['size-mb']);
const fileCount = Number(options.files);
const intervalMs = Number(options['interval-ms']);

const progress = (message) => process.stderr.write(`${message}\n`);
const mb = (kib) => `${(kib / 1024).toFixed(1)} MB`;

/** VmRSS of a process, in KiB. */
function rssKib(pid) {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : 0;
}

/** Samples a process's RSS while `work` runs; returns the work's result with the samples' summary. */
async function sampled(pid, work) {
  const before = rssKib(pid);
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, rssKib(pid));
  }, intervalMs);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, rssKib(pid));
  return { before, peak, after: rssKib(pid), seconds: (performance.now() - started) / 1000 };
}

/** The git CLI, isolated from the machine's config. */
function gitCli(home) {
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'Bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
    LANG: 'C',
  };
  return (cwd, args) =>
    new Promise((resolve, reject) => {
      execFile('git', args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
        error ? reject(new Error(`git ${args.join(' ')} failed: ${stderr}`)) : resolve(stdout),
      );
    });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function api(server, method, path, body) {
  const response = await fetch(`${server.url}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': server.rootToken, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

async function main() {
  const work = tempDir('forgekit-bench-clone-');
  const git = gitCli(work);
  const source = join(work, 'source');
  mkdirSync(source);
  progress(`writing ${fileCount} files of random bytes, ${sizeMb} MB in all...`);
  await git(source, ['init', '--quiet', '--initial-branch=main']);
  const fileBytes = Math.ceil((sizeMb * 1024 * 1024) / fileCount);
  for (let i = 0; i < fileCount; i++) writeFileSync(join(source, `blob-${i}.bin`), randomBytes(fileBytes));
  await git(source, ['add', '.']);
  await git(source, ['commit', '--quiet', '-m', 'Large blobs']);

  progress('starting the reference server (SQLite)...');
  const server = await startForgekit();
  const pid = server.child.pid;
  const project = await api(server, 'POST', '/projects', { name: 'large', visibility: 'private' });
  const remote = project.http_url_to_repo.replace('://', `://root:${server.rootToken}@`);
  progress(`server pid ${pid}, RSS at rest ${mb(rssKib(pid))}`);

  progress('pushing into the empty project...');
  const push = await sampled(pid, () => git(source, ['push', '--quiet', remote, 'main']));
  // A fresh process for the clone, so memory the push left behind does not hide the clone's.
  progress('restarting the server on the same data...');
  await stop(server.child);
  const restarted = await startForgekit({ dataDir: server.dataDir, rootToken: server.rootToken });
  const clonePid = restarted.child.pid;
  const cloneRemote = `${restarted.url}/${project.path_with_namespace}.git`.replace('://', `://root:${server.rootToken}@`);
  progress(`server pid ${clonePid}, RSS at rest ${mb(rssKib(clonePid))}; cloning it back...`);
  const clone = await sampled(clonePid, () => git(work, ['clone', '--quiet', '--bare', cloneRemote, 'clone.git']));
  const packBytes = Number((await git(join(work, 'clone.git'), ['count-objects', '-v'])).match(/size-pack: (\d+)/)[1]) * 1024;

  const rows = [
    ['push', push],
    ['clone', clone],
  ];
  process.stdout.write(`pack ${(packBytes / 1024 / 1024).toFixed(1)} MB, server RSS (VmRSS from /proc/<pid>/status) sampled every ${intervalMs} ms\n`);
  process.stdout.write('phase   RSS before   peak RSS    RSS after   seconds\n');
  for (const [name, row] of rows) {
    process.stdout.write(
      `${name.padEnd(6)}  ${mb(row.before).padStart(10)}  ${mb(row.peak).padStart(10)}  ${mb(row.after).padStart(10)}  ${row.seconds.toFixed(1).padStart(7)}\n`,
    );
  }
}

runOwned(main);
