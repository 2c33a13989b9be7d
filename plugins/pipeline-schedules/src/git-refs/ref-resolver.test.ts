import { describe, expect, it } from 'vitest';
import { defaultRefResolver, FULL_REF, isValidBranchName, splitFullRef } from './ref-resolver.js';

const project = { id: 1, fullPath: 'group/project', defaultBranch: null };

describe('refs without a repository', () => {
  it('reads a valid short name as a branch', async () => {
    expect(await defaultRefResolver.expandShortRef(project, 'main')).toBe('refs/heads/main');
    expect(await defaultRefResolver.expandShortRef(project, 'feature/login-v2')).toBe('refs/heads/feature/login-v2');
    expect(await defaultRefResolver.commitFor(project, 'refs/heads/main')).toBeNull();
  });

  it('refuses names git would refuse', async () => {
    for (const name of [
      '',
      '@',
      '-main',
      'a b',
      'a..b',
      'a~1',
      'a^',
      'a:b',
      'a?',
      'a*',
      'a[b',
      'a\\b',
      'a@{1}',
      '/a',
      'a/',
      'a//b',
      'a.',
      '.a',
      'a/.b',
      'a.lock',
      'a/b.lock',
      'tab\there',
    ]) {
      expect(isValidBranchName(name), name).toBe(false);
      expect(await defaultRefResolver.expandShortRef(project, name), name).toBeNull();
    }
  });

  it('knows full refs and splits them into name and kind', () => {
    expect(FULL_REF.test('refs/heads/main')).toBe(true);
    expect(FULL_REF.test('refs/tags/v1.0')).toBe(true);
    expect(FULL_REF.test('refs/heads/')).toBe(false);
    expect(FULL_REF.test('refs/remotes/origin/main')).toBe(false);
    expect(splitFullRef('refs/heads/feature/x')).toEqual({ ref: 'feature/x', tag: false });
    expect(splitFullRef('refs/tags/v1.0')).toEqual({ ref: 'v1.0', tag: true });
  });
});
