import type { Database, Secrets, Transaction } from '@forgekit/kernel';
import type { HookTrigger } from '../contracts.js';
import { WebHookEntity, type HookOwnerKind, type WebHookRow } from '../entities/web-hook.js';

export interface HookOwner {
  kind: HookOwnerKind;
  id: number;
}

/** A hook with its secrets opened. */
export interface Hook {
  id: number;
  owner: HookOwner;
  url: string;
  name: string | null;
  description: string | null;
  token: string | null;
  urlVariables: Record<string, string>;
  customHeaders: Record<string, string>;
  triggers: Partial<Record<HookTrigger, boolean | null>>;
  enableSslVerification: boolean;
  pushEventsBranchFilter: string | null;
  branchFilterStrategy: string;
  customWebhookTemplate: string | null;
  recentFailures: number;
  disabledUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type HookFields = Omit<Hook, 'id' | 'owner' | 'recentFailures' | 'disabledUntil' | 'createdAt' | 'updatedAt'>;

export function createHookStore(database: Database, secrets: Secrets) {
  const openMap = (sealed: string | null | undefined): Record<string, string> => (sealed ? JSON.parse(secrets.open(sealed).toString('utf8')) : {});
  const sealMap = (map: Record<string, string>) => (Object.keys(map).length ? secrets.seal(JSON.stringify(map)) : null);

  const toHook = (row: WebHookRow): Hook => ({
    id: row.id,
    owner: { kind: row.ownerType, id: row.ownerId },
    url: row.url,
    name: row.name ?? null,
    description: row.description ?? null,
    token: row.token ? secrets.open(row.token).toString('utf8') : null,
    urlVariables: openMap(row.urlVariables),
    customHeaders: openMap(row.customHeaders),
    triggers: JSON.parse(row.triggers),
    enableSslVerification: row.enableSslVerification,
    pushEventsBranchFilter: row.pushEventsBranchFilter ?? null,
    branchFilterStrategy: row.branchFilterStrategy,
    customWebhookTemplate: row.customWebhookTemplate ?? null,
    recentFailures: row.recentFailures,
    disabledUntil: row.disabledUntil ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  });

  const columns = (fields: HookFields) => ({
    url: fields.url,
    name: fields.name,
    description: fields.description,
    token: fields.token ? secrets.seal(fields.token) : null,
    urlVariables: sealMap(fields.urlVariables),
    customHeaders: sealMap(fields.customHeaders),
    triggers: JSON.stringify(fields.triggers),
    enableSslVerification: fields.enableSslVerification,
    pushEventsBranchFilter: fields.pushEventsBranchFilter,
    branchFilterStrategy: fields.branchFilterStrategy,
    customWebhookTemplate: fields.customWebhookTemplate,
  });

  return {
    async list(owner: HookOwner, limit: number, offset: number) {
      const rows = await database.rows(
        database.from(WebHookEntity).where({ ownerType: owner.kind, ownerId: owner.id }).orderBy('id').limit(limit).offset(offset),
      );
      return rows.map(toHook);
    },
    count: (owner: HookOwner) => database.count(database.from(WebHookEntity).where({ ownerType: owner.kind, ownerId: owner.id })),
    async find(owner: HookOwner, id: number) {
      const row = await database.row(database.from(WebHookEntity).where({ id, ownerType: owner.kind, ownerId: owner.id }));
      return row && toHook(row);
    },
    async findById(id: number) {
      const row = await database.row(database.from(WebHookEntity).where({ id }));
      return row && toHook(row);
    },
    /** The hooks of these projects and groups. */
    async ofOwners(projectIds: readonly number[], groupIds: readonly number[]) {
      const rows = await database.rows(
        database
          .from(WebHookEntity)
          .where((w) => w.where('ownerType', 'project').whereIn('ownerId', [...projectIds]))
          .orWhere((w) => w.where('ownerType', 'group').whereIn('ownerId', [...groupIds]))
          .orderBy('id'),
      );
      return rows.map(toHook);
    },
    async insert(owner: HookOwner, fields: HookFields) {
      const now = new Date();
      const id = await database.insert(WebHookEntity, {
        ownerType: owner.kind,
        ownerId: owner.id,
        ...columns(fields),
        recentFailures: 0,
        disabledUntil: null,
        createdAt: now,
        updatedAt: now,
      });
      return (await this.findById(id))!;
    },
    async update(id: number, fields: HookFields, health?: { recentFailures: number; disabledUntil: Date | null }) {
      await database.update(WebHookEntity, { id }, { ...columns(fields), ...health, updatedAt: new Date() });
      return (await this.findById(id))!;
    },
    async setHealth(id: number, recentFailures: number, disabledUntil: Date | null, tx?: Transaction) {
      await database.update(WebHookEntity, { id }, { recentFailures, disabledUntil }, { tx });
    },
    remove: (id: number) => database.delete(WebHookEntity, { id }),
    async idsOf(owner: HookOwner) {
      const rows = await database.rows(database.from(WebHookEntity).where({ ownerType: owner.kind, ownerId: owner.id }));
      return rows.map((row) => row.id);
    },
    removeAllOf: (owner: HookOwner) => database.delete(WebHookEntity, { ownerType: owner.kind, ownerId: owner.id }),
  };
}

export type HookStore = ReturnType<typeof createHookStore>;
