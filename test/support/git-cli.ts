/** The real git client for black-box tests, isolated from the machine's config. */
import { execFile } from 'node:child_process';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface GitIdentityEnv {
  name: string;
  email: string;
}

/** A git runner with `home` as HOME and `who` as author and committer. */
export function gitCli(home: string, who: GitIdentityEnv = { name: 'Dev', email: 'dev@example.com' }) {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: who.name,
    GIT_AUTHOR_EMAIL: who.email,
    GIT_COMMITTER_NAME: who.name,
    GIT_COMMITTER_EMAIL: who.email,
  };
  /** Runs git in `cwd`; resolves with its exit code and output rather than failing. */
  const run = (cwd: string, ...args: string[]) =>
    new Promise<GitResult>((resolve) =>
      execFile('git', args, { cwd, env }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: stdout.toString().trim(), stderr: stderr.toString() }),
      ),
    );
  /** Runs git and fails with its output unless it succeeds; resolves with its output. */
  const ok = async (cwd: string, ...args: string[]) => {
    const result = await run(cwd, ...args);
    if (result.code !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  };
  return { run, ok };
}

/** A clone URL with the user and token as Basic credentials. */
export const withToken = (url: string, user: { username: string; token: string }) => url.replace('://', `://${user.username}:${user.token}@`);
