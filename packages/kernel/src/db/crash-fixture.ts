/** What group-commit.crash.test.ts and the process it kills share. */
import { defineEntity } from '@mikro-orm/core';

export const CRASH_ENV = { database: 'FORGEKIT_CRASH_DATABASE', acks: 'FORGEKIT_CRASH_ACKS' } as const;

export const CrashItem = defineEntity({
  name: 'CrashItem',
  tableName: 'crash_items',
  properties: (p) => ({
    id: p.integer().primary(),
    name: p.string().length(64).unique(),
  }),
});
