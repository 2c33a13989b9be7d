import { describe, expect, it } from 'vitest';
import { checkGitInstalled, git, GitCommandError } from './git-runner.js';
import { isValidRefName } from './ref-names.js';

describe('git runner', () => {
  it('finds the installed git', async () => {
    expect(await checkGitInstalled()).toMatch(/^git version 2\./);
  });

  it('explains clearly when git is missing', async () => {
    await expect(checkGitInstalled('git-that-does-not-exist')).rejects.toThrow(
      'The repositories plugin needs the git command-line tool (2.28 or newer), but it was not found on PATH. Install git and restart the server.',
    );
  });

  it('reports a failing command with its stderr', async () => {
    const error = await git('/nonexistent/repo.git', ['rev-parse', 'HEAD']).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(GitCommandError);
    expect((error as GitCommandError).message).toContain('rev-parse HEAD');
  });
});

describe('ref names', () => {
  it.each(['main', 'feature/one', 'v1.0', 'a-b_c', 'release/2024.01'])('accepts %s', (name) => expect(isValidRefName(name)).toBe(true));
  it.each([
    '',
    'HEAD',
    '-x',
    'a..b',
    'a b',
    'a~b',
    'a^b',
    'a:b',
    'a?b',
    'a*b',
    'a[b',
    'a\\b',
    '/a',
    'a/',
    'a//b',
    'a.',
    'a.lock',
    '.a',
    'a/.b',
    'a@{b',
    '@',
    'refs/heads/x',
  ])('refuses %j', (name) => expect(isValidRefName(name)).toBe(false));
});
