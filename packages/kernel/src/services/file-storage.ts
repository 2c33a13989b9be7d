import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

/** Files under the data dir, addressed by a relative key such as `uploads/12/abc/file.png`. */
export interface FileStorage {
  readonly root: string;
  put(key: string, data: Uint8Array | string): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  delete(key: string): Promise<void>;
  /** The absolute path of a key (for tools such as git that need one). */
  path(key: string): string;
}

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
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(path(key), { recursive: true, force: true });
    },
  };
}
