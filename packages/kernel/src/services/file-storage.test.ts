import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileStorage, type FileStorage } from './file-storage.js';

describe('file storage', () => {
  let dir: string;
  let files: FileStorage;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'forgekit-files-'));
    files = createFileStorage(join(dir, 'files'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('moves a file in under a key, and opens it as a stream with its size', async () => {
    const source = join(dir, 'upload.tmp');
    await writeFile(source, 'uploaded bytes');
    await files.moveIn('uploads/project/1/abc/notes.txt', source);
    expect(existsSync(source)).toBe(false);
    expect(await readFile(files.path('uploads/project/1/abc/notes.txt'), 'utf8')).toBe('uploaded bytes');

    const opened = await files.open('uploads/project/1/abc/notes.txt');
    expect(opened?.size).toBe(14);
    expect(await text(opened!.stream)).toBe('uploaded bytes');
  });

  it('replaces what a key held when a file moves in under it', async () => {
    await files.put('replaced.txt', 'old');
    const source = join(dir, 'newer.tmp');
    await writeFile(source, 'new');
    await files.moveIn('replaced.txt', source);
    expect((await files.get('replaced.txt'))?.toString()).toBe('new');
  });

  it('opens nothing for a missing key or a folder', async () => {
    expect(await files.open('uploads/project/1/missing.txt')).toBeNull();
    await mkdir(files.path('a-folder'), { recursive: true });
    expect(await files.open('a-folder')).toBeNull();
  });

  it('deletes a folder with everything below it', async () => {
    await files.put('uploads/project/2/x/one.txt', '1');
    await files.put('uploads/project/2/y/two.txt', '2');
    await files.delete('uploads/project/2');
    expect(existsSync(files.path('uploads/project/2'))).toBe(false);
    expect(await files.open('uploads/project/1/abc/notes.txt')).not.toBeNull();
  });

  it('refuses keys that leave the storage root, and a move onto the root itself', async () => {
    const source = join(dir, 'escape.tmp');
    await writeFile(source, 'x');
    await expect(files.moveIn('../outside.txt', source)).rejects.toThrow('escapes the storage root');
    await expect(files.moveIn('.', source)).rejects.toThrow('cannot replace the storage root');
    await expect(files.open('../../etc/passwd')).rejects.toThrow('escapes the storage root');
    expect(existsSync(source)).toBe(true);
  });
});
