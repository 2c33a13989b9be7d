/** The real git command-line client, isolated from the machine's config, for tests. */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface GitClientResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function createGitClient() {
  const home = await mkdtemp(join(tmpdir(), 'forgekit-git-client-'));
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: 'Client Author',
    GIT_AUTHOR_EMAIL: 'client@example.com',
    GIT_COMMITTER_NAME: 'Client Author',
    GIT_COMMITTER_EMAIL: 'client@example.com',
    LANG: 'C',
  };
  /** Runs git in `cwd`; resolves with the exit code instead of throwing. */
  const run = (cwd: string, args: string[]) =>
    new Promise<GitClientResult>((resolve) => {
      execFile('git', args, { cwd, env }, (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout: stdout.toString(), stderr: stderr.toString() });
      });
    });
  /** Runs git and fails with its output when it does not succeed. */
  const ok = async (cwd: string, args: string[]) => {
    const result = await run(cwd, args);
    if (result.code !== 0) throw new Error(`git ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
    return result.stdout;
  };
  return { home, run, ok };
}
