import { copyFile, mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';

/** A stored file opened for reading: its size, and its bytes as a stream read from disk as they are sent. */
export interface StoredFile {
  size: number;
  stream: Readable;
}

/** Files under the data dir, addressed by a relative key such as `uploads/12/abc/file.png`. */
export interface FileStorage {
  readonly root: string;
  put(key: string, data: Uint8Array | string): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  /**
   * Moves the file at `source` (an uploaded file's temporary file, say) in under `key`,
   * replacing what the key held, without reading it into memory: a rename, or a copy and
   * a removal when `source` lies on another filesystem.
   */
  moveIn(key: string, source: string): Promise<void>;
  /** The file under `key` opened as a stream, or null when there is none. */
  open(key: string): Promise<StoredFile | null>;
  /** Removes the file under `key`, or everything below it when it names a folder. */
  delete(key: string): Promise<void>;
  /** The absolute path of a key (for tools such as git that need one). */
  path(key: string): string;
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

export function createFileStorage(root: string): FileStorage {
  const base = resolve(root);
  const path = (key: string) => {
    const full = resolve(join(base, key));
    if (full !== base && !full.startsWith(base + sep)) throw new Error(`Storage key escapes the storage root: ${key}`);
    return full;
  };
  return {
    root: base,
    path,
    async put(key, data) {
      const full = path(key);
      await mkdir(dirname(full), { recursive: true });
      await writeFile(full, data);
    },
    async get(key) {
      try {
        return await readFile(path(key));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async moveIn(key, source) {
      const full = path(key);
      if (full === base) throw new Error('A file cannot replace the storage root');
      await mkdir(dirname(full), { recursive: true });
      try {
        await rename(source, full);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        // Another filesystem: the kernel copies (copy_file_range where it can), never through memory.
        await copyFile(source, full);
        await rm(source, { force: true });
      }
    },
    async open(key) {
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(path(key), 'r');
      } catch (error) {
        if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'EISDIR') return null;
        throw error;
      }
      try {
        // The size and the bytes come from the same open file, so a replaced file cannot mix them up.
        const stats = await handle.stat();
        if (!stats.isFile()) {
          await handle.close();
          return null;
        }
        return { size: stats.size, stream: handle.createReadStream({ autoClose: true }) };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
    async delete(key) {
      await rm(path(key), { recursive: true, force: true });
    },
  };
}
