import type { ForgePlugin } from '@forgekit/kernel';
import { corePlugin } from '@forgekit/plugin-core';

/** Every plugin the reference server composes. */
export const allPlugins: readonly ForgePlugin<any>[] = [corePlugin];
