import { schemaDriftOf } from '@forgekit/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { allPlugins } from '../plugins.js';

/** Every plugin's migrated tables are exactly what its entities describe, on the engine this run uses. */
describe('migrated schema and entities', () => {
  let drift: Record<string, string[]>;
  beforeAll(async () => {
    drift = await schemaDriftOf(allPlugins);
  });

  it.each(allPlugins.map((plugin) => plugin.id))('%s', (id) => {
    expect(drift[id]).toEqual([]);
  });
});
