/** Runner rows: tokens (stored only as digests), tags, project assignments and managers. */
import { generateToken, tokenDigest, type Database } from '@forgekit/kernel';
import { unlessTaken, type EntityManager } from '@forgekit/kernel/orm';
import { CiRunner } from '../entities/runner.js';
import { CiRunnerManager, type RunnerManagerRow } from '../entities/runner-manager.js';
import { CiRunnerProject, type RunnerProjectRow } from '../entities/runner-project.js';
import { CiRunnerTag } from '../entities/runner-tag.js';
import type { RunnerSettings } from './runner-attributes.js';
import { TYPE_DIGIT, type RegistrationType, type RunnerRow, type RunnerType } from './runner-row.js';

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

/** What a runner reports about the machine it runs on. */
export interface ManagerDetails {
  systemXid: string;
  version?: string | null;
  revision?: string | null;
  platform?: string | null;
  architecture?: string | null;
  ipAddress?: string | null;
}

/** The stored settings a change sets: the API's names to the entity's. */
function settingValues(settings: RunnerSettings): Partial<RunnerRow> {
  const values: Partial<RunnerRow> = {
    name: settings.name,
    description: settings.description,
    active: settings.active,
    runUntagged: settings.run_untagged,
    locked: settings.locked,
    accessLevel: settings.access_level,
    maximumTimeout: settings.maximum_timeout,
    maintenanceNote: settings.maintenance_note,
  };
  for (const key of Object.keys(values) as (keyof RunnerRow)[]) if (values[key] === undefined) delete values[key];
  return values;
}

function newSecret(type: RunnerType, registrationType: RegistrationType) {
  const prefix = registrationType === 'authenticated_user' ? CREATED_TOKEN_PREFIX : REGISTERED_TOKEN_PREFIX;
  return generateToken(`${prefix}t${TYPE_DIGIT[type]}_`, 24);
}

/** Whether a write may go ahead, asked inside its transaction. */
export type Admission = (em: EntityManager) => Promise<boolean>;

export function createRunnerStore(database: Database) {
  const findById = (id: number, em?: EntityManager): Promise<RunnerRow | undefined> =>
    database.legacy.row(CiRunner, database.legacy.from(CiRunner).where('id', id), { em });
  const byToken = database.legacy.prepareRows(CiRunner, (p) => database.legacy.from(CiRunner).where('token_digest', p.digest).limit(1));

  async function replaceTags(em: EntityManager, runnerId: number, tags: readonly string[]) {
    await em.nativeDelete(CiRunnerTag, { runnerId });
    // One row at a time keeps the insertion order, which is the order tags are listed in.
    for (const name of tags) await em.insert(CiRunnerTag, { runnerId, name });
  }

  return {
    findById: (id: number) => findById(id),
    async findByToken(secret: string): Promise<RunnerRow | undefined> {
      return secret ? byToken.first({ digest: tokenDigest(secret) }) : undefined;
    },
    async tagsOf(runnerId: number): Promise<string[]> {
      const rows = await database.legacy.rows(CiRunnerTag, database.legacy.from(CiRunnerTag).where('runner_id', runnerId).orderBy('id'));
      return rows.map((row) => row.name);
    },
    /** Assigned projects, in the order they were assigned. */
    async projectIdsOf(runnerId: number): Promise<number[]> {
      const rows = await database.legacy.rows(CiRunnerProject, database.legacy.from(CiRunnerProject).where('runner_id', runnerId).orderBy('id'));
      return rows.map((row) => row.projectId);
    },
    runnerProject: (runnerId: number, projectId: number): Promise<RunnerProjectRow | undefined> =>
      database.legacy.row(CiRunnerProject, database.legacy.from(CiRunnerProject).where({ runner_id: runnerId, project_id: projectId })),
    /** The manager that contacted the server last. */
    latestManager: (runnerId: number): Promise<RunnerManagerRow | undefined> =>
      database.legacy.row(
        CiRunnerManager,
        database.legacy
          .from(CiRunnerManager)
          .where('runner_id', runnerId)
          .orderBy([
            { column: 'contacted_at', order: 'desc', nulls: 'last' },
            { column: 'id', order: 'desc' },
          ]),
      ),

    /** Inserts the runner, its tags and its project; nothing when `admit` (run first, in the transaction) says no. */
    async create(input: NewRunner, admit: Admission = async () => true): Promise<{ row: RunnerRow; secret: string } | null> {
      const secret = newSecret(input.runnerType, input.registrationType);
      const now = new Date();
      const row = await database.legacy.transaction(async (em) => {
        if (!(await admit(em))) return null;
        const id = Number(
          await em.insert(CiRunner, {
            ...settingValues(input),
            runnerType: input.runnerType,
            registrationType: input.registrationType,
            tokenDigest: tokenDigest(secret),
            creatorId: input.creatorId ?? null,
            groupId: input.groupId ?? null,
            ownerProjectId: input.projectId ?? null,
            createdAt: now,
            updatedAt: now,
          }),
        );
        await replaceTags(em, id, input.tag_list ?? []);
        if (input.projectId) await em.insert(CiRunnerProject, { runnerId: id, projectId: input.projectId, createdAt: now, updatedAt: now });
        return (await findById(id, em))!;
      });
      return row ? { row, secret } : null;
    },

    async update(runnerId: number, changes: RunnerSettings): Promise<RunnerRow> {
      return database.legacy.transaction(async (em) => {
        await em.nativeUpdate(CiRunner, { id: runnerId }, { ...settingValues(changes), updatedAt: new Date() });
        if (changes.tag_list !== undefined) await replaceTags(em, runnerId, changes.tag_list);
        return (await findById(runnerId, em))!;
      });
    },

    async remove(runnerIds: readonly number[]) {
      if (runnerIds.length === 0) return;
      const runnerId = { $in: [...runnerIds] };
      await database.legacy.transaction(async (em) => {
        await em.nativeDelete(CiRunnerTag, { runnerId });
        await em.nativeDelete(CiRunnerManager, { runnerId });
        await em.nativeDelete(CiRunnerProject, { runnerId });
        await em.nativeDelete(CiRunner, { id: runnerId });
      });
    },

    /** A new authentication token; the old one stops working at once. */
    async resetToken(runner: RunnerRow): Promise<string> {
      const secret = newSecret(runner.runnerType, runner.registrationType);
      await database.legacy.em().nativeUpdate(CiRunner, { id: runner.id }, { tokenDigest: tokenDigest(secret), tokenExpiresAt: null, updatedAt: new Date() });
      return secret;
    },

    /** Records that the runner (and the manager it reports) contacted the server. */
    async heartbeat(runnerId: number, manager: ManagerDetails) {
      const now = new Date();
      const details: Partial<RunnerManagerRow> = { contactedAt: now, updatedAt: now };
      for (const key of ['version', 'revision', 'platform', 'architecture'] as const) if (manager[key] != null) details[key] = manager[key];
      if (manager.ipAddress) details.ipAddress = manager.ipAddress;
      const where = { runnerId, systemXid: manager.systemXid };
      const write = () =>
        database.legacy.transaction(async (em) => {
          await em.nativeUpdate(CiRunner, { id: runnerId }, { contactedAt: now });
          const updated = await em.nativeUpdate(CiRunnerManager, where, details);
          if (updated === 0) await em.insert<RunnerManagerRow>(CiRunnerManager, { ...where, createdAt: now, updatedAt: now, ...details });
        });
      // A concurrent first contact of the same machine inserted it first: update that one.
      await unlessTaken(write(), write);
    },

    /** Assigns the runner unless `admit` (run first, in the transaction) says no; `taken` when it already is assigned. */
    async assign(runnerId: number, projectId: number, admit: Admission): Promise<'assigned' | 'refused' | 'taken'> {
      const now = new Date();
      const write = database.legacy.transaction(async (em) => {
        if (!(await admit(em))) return 'refused' as const;
        await em.insert(CiRunnerProject, { runnerId, projectId, createdAt: now, updatedAt: now });
        return 'assigned' as const;
      });
      return unlessTaken(write, () => 'taken' as const);
    },
    unassign: (runnerId: number, projectId: number) => database.legacy.em().nativeDelete(CiRunnerProject, { runnerId, projectId }),
  };
}

export type RunnerStore = ReturnType<typeof createRunnerStore>;
