/**
 * Swagger UI's files, from the `swagger-ui-dist` package. Only the files the page loads are
 * served, by name: a request can never name another file of the package or of the disk.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface Asset {
  readonly body: Uint8Array;
  readonly contentType: string;
}

export interface AssetSource {
  /** The file's bytes and type, read on first use and kept; undefined for a name not served. */
  get(name: string): Promise<Asset | undefined>;
}

const SERVED: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

export function swaggerUiAssets(): AssetSource {
  const dir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  // About 1.5 MB in all: read when the page is first opened, not at start.
  const cache = new Map<string, Promise<Asset>>();
  return {
    async get(name) {
      const contentType = Object.hasOwn(SERVED, name) ? SERVED[name] : undefined;
      if (!contentType) return undefined;
      let asset = cache.get(name);
      if (!asset) {
        asset = readFile(join(dir, name)).then((body) => ({ body, contentType }));
        cache.set(name, asset);
      }
      return asset;
    },
  };
}
