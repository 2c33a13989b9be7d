import { defineEntity, type InferEntity } from '@forgekit/kernel/orm';
import type { RegistrationType, RunnerType } from '../contracts.js';

export const RunnerEntity = defineEntity({
  name: 'CiRunner',
  tableName: 'ci_runners',
  properties: (p) => ({
    id: p.integer().primary(),
    runnerType: p.string().$type<RunnerType>().length(16),
    registrationType: p.string().$type<RegistrationType>().length(32),
    tokenDigest: p.string().length(64).unique(),
    tokenExpiresAt: p.datetime().nullable(),
    name: p.string().length(256).nullable(),
    description: p.string().length(1024).nullable(),
    active: p.boolean().default(true),
    runUntagged: p.boolean().default(true),
    locked: p.boolean().default(false),
    accessLevel: p.string().length(16).default('not_protected'),
    maximumTimeout: p.integer().nullable(),
    maintenanceNote: p.string().length(1024).nullable(),
    contactedAt: p.datetime().nullable(),
    creatorId: p.integer().nullable(),
    /** The owning group of a group runner. */
    groupId: p.integer().nullable().index(),
    /** The owning project of a project runner (the first it was assigned to). */
    ownerProjectId: p.integer().nullable().index(),
    createdAt: p.datetime(),
    updatedAt: p.datetime(),
  }),
});

export type RunnerRow = InferEntity<typeof RunnerEntity>;
