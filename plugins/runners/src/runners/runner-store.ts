/** Runner rows: tokens (stored only as digests), tags, project assignments and managers. */
import { generateToken, patchFrom, tokenDigest, type Database, type Transaction } from '@forgekit/kernel';
import { unlessTaken } from '@forgekit/kernel/orm';
import type { ManagerDetails, Runner } from '../contracts.js';
import { RunnerEntity } from '../entities/runner.js';
import { RunnerManagerEntity, type RunnerManagerRow } from '../entities/runner-manager.js';
import { RunnerProjectEntity, type RunnerProjectRow } from '../entities/runner-project.js';
import { RunnerTagEntity } from '../entities/runner-tag.js';
import type { RunnerSettings } from './runner-attributes.js';
import { TYPE_DIGIT, type RunnerRow, type RegistrationType, type RunnerType } from './runner-row.js';

/** Authentication tokens of runners created through `POST /user/runners`. */
export const CREATED_TOKEN_PREFIX = 'fkrt-';
/** Authentication tokens of runners registered with a registration token. */
export const REGISTERED_TOKEN_PREFIX = 'fkrtr-';

export interface NewRunner extends RunnerSettings {
  runnerType: RunnerType;
  registrationType: RegistrationType;
  creatorId?: number | null;
  groupId?: number | null;
  projectId?: number | null;
}

/** The stored settings a change sets: the API's names to the entity's. */
const settingValues = (settings: RunnerSettings) =>
  patchFrom<RunnerRow, RunnerSettings>(settings, {
    name: 'name',
    description: 'description',
    active: 'active',
    run_untagged: 'runUntagged',
    locked: 'locked',
    access_level: 'accessLevel',
    maximum_timeout: 'maximumTimeout',
    maintenance_note: 'maintenanceNote',
  });

function newSecret(type: RunnerType, registrationType: RegistrationType) {
  const prefix = registrationType === 'authenticated_user' ? CREATED_TOKEN_PREFIX : REGISTERED_TOKEN_PREFIX;
  return generateToken(`${prefix}t${TYPE_DIGIT[type]}_`, 24);
}

/** A runner as other plugins see it: without its token's digest. */
function runnerOf(row: RunnerRow | undefined): Runner | undefined {
  if (!row) return undefined;
  const { tokenDigest: _digest, ...runner } = row;
  return runner;
}

/** Whether a write may go ahead, asked inside its transaction. */
export type Admission = (tx: Transaction) => Promise<boolean>;

export function createRunnerStore(database: Database) {
  const findById = (id: number, tx?: Transaction): Promise<RunnerRow | undefined> => database.row(database.from(RunnerEntity).where('id', id), { tx });
  const byToken = database.prepareRows((p) => database.from(RunnerEntity).where('tokenDigest', p.digest).limit(1));

  async function replaceTags(tx: Transaction, runnerId: number, tags: readonly string[]) {
    await database.delete(RunnerTagEntity, { runnerId }, { tx });
    // One row at a time keeps the insertion order, which is the order tags are listed in.
    for (const name of tags) await database.insert(RunnerTagEntity, { runnerId, name }, { tx });
  }

  async function findByToken(secret: string): Promise<RunnerRow | undefined> {
    return secret ? byToken.first({ digest: tokenDigest(secret) }) : undefined;
  }

  /** Records that the runner (and the manager it reports) contacted the server. */
  async function heartbeat(runnerId: number, manager: ManagerDetails) {
    const now = new Date();
    const details: Partial<RunnerManagerRow> = { contactedAt: now, updatedAt: now };
    for (const key of ['version', 'revision', 'platform', 'architecture'] as const) if (manager[key] != null) details[key] = manager[key];
    if (manager.ipAddress) details.ipAddress = manager.ipAddress;
    const where = { runnerId, systemXid: manager.systemXid };
    const write = () =>
      database.transaction(async (tx) => {
        await database.update(RunnerEntity, { id: runnerId }, { contactedAt: now }, { tx });
        const updated = await database.update(RunnerManagerEntity, where, details, { tx });
        if (updated === 0) await database.insert(RunnerManagerEntity, { ...where, createdAt: now, updatedAt: now, ...details }, { tx });
      });
    // A concurrent first contact of the same machine inserted it first: update that one.
    await unlessTaken(write(), write);
  }

  return {
    findById: (id: number) => findById(id),
    findByToken,
    /** What other plugins get through the runners service. */
    service: {
      findById: async (id: number) => runnerOf(await findById(id)),
      findByToken: async (secret: string) => runnerOf(await findByToken(secret)),
      heartbeat,
    },
    async tagsOf(runnerId: number): Promise<string[]> {
      return (await database.rows(database.from(RunnerTagEntity).where('runnerId', runnerId).orderBy('id'))).map((row) => row.name);
    },
    /** Assigned projects, in the order they were assigned. */
    async projectIdsOf(runnerId: number): Promise<number[]> {
      return (await database.rows(database.from(RunnerProjectEntity).where('runnerId', runnerId).orderBy('id'))).map((row) => row.projectId);
    },
    runnerProject: (runnerId: number, projectId: number): Promise<RunnerProjectRow | undefined> =>
      database.row(database.from(RunnerProjectEntity).where({ runnerId, projectId })),
    /** The manager that contacted the server last. */
    latestManager: (runnerId: number): Promise<RunnerManagerRow | undefined> =>
      database.row(database.from(RunnerManagerEntity).where('runnerId', runnerId).orderBy('contactedAt', 'desc', { nulls: 'last' }).orderBy('id', 'desc')),

    /** Inserts the runner, its tags and its project; nothing when `admit` (run first, in the transaction) says no. */
    async create(input: NewRunner, admit: Admission = async () => true): Promise<{ row: RunnerRow; secret: string } | null> {
      const secret = newSecret(input.runnerType, input.registrationType);
      const now = new Date();
      const row = await database.transaction(async (tx) => {
        if (!(await admit(tx))) return null;
        const id = await database.insert(
          RunnerEntity,
          {
            ...settingValues(input),
            runnerType: input.runnerType,
            registrationType: input.registrationType,
            tokenDigest: tokenDigest(secret),
            creatorId: input.creatorId ?? null,
            groupId: input.groupId ?? null,
            ownerProjectId: input.projectId ?? null,
            createdAt: now,
            updatedAt: now,
          },
          { tx },
        );
        await replaceTags(tx, id, input.tag_list ?? []);
        if (input.projectId) await database.insert(RunnerProjectEntity, { runnerId: id, projectId: input.projectId, createdAt: now, updatedAt: now }, { tx });
        return (await findById(id, tx))!;
      });
      return row ? { row, secret } : null;
    },

    async update(runnerId: number, changes: RunnerSettings): Promise<RunnerRow> {
      return database.transaction(async (tx) => {
        await database.update(RunnerEntity, { id: runnerId }, { ...settingValues(changes), updatedAt: new Date() }, { tx });
        if (changes.tag_list !== undefined) await replaceTags(tx, runnerId, changes.tag_list);
        return (await findById(runnerId, tx))!;
      });
    },

    async remove(runnerIds: readonly number[]) {
      if (runnerIds.length === 0) return;
      const runnerId = { $in: [...runnerIds] };
      await database.transaction(async (tx) => {
        await database.delete(RunnerTagEntity, { runnerId }, { tx });
        await database.delete(RunnerManagerEntity, { runnerId }, { tx });
        await database.delete(RunnerProjectEntity, { runnerId }, { tx });
        await database.delete(RunnerEntity, { id: runnerId }, { tx });
      });
    },

    /** A new authentication token; the old one stops working at once. */
    async resetToken(runner: RunnerRow): Promise<string> {
      const secret = newSecret(runner.runnerType, runner.registrationType);
      await database.update(RunnerEntity, { id: runner.id }, { tokenDigest: tokenDigest(secret), tokenExpiresAt: null, updatedAt: new Date() });
      return secret;
    },

    heartbeat,

    /** Assigns the runner unless `admit` (run first, in the transaction) says no; `taken` when it already is assigned. */
    async assign(runnerId: number, projectId: number, admit: Admission): Promise<'assigned' | 'refused' | 'taken'> {
      const now = new Date();
      const write = database.transaction(async (tx) => {
        if (!(await admit(tx))) return 'refused' as const;
        await database.insert(RunnerProjectEntity, { runnerId, projectId, createdAt: now, updatedAt: now }, { tx });
        return 'assigned' as const;
      });
      return unlessTaken(write, () => 'taken' as const);
    },
    unassign: (runnerId: number, projectId: number) => database.delete(RunnerProjectEntity, { runnerId, projectId }),
  };
}

export type RunnerStore = ReturnType<typeof createRunnerStore>;
