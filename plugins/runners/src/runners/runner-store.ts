/** Runner rows: tokens (stored only as digests), tags, project assignments and managers. */
import { generateToken, tokenDigest } from '@forgekit/kernel';
import type { Knex } from '@forgekit/kernel/orm';
import type { RunnerSettings } from './runner-attributes.js';
import { TYPE_DIGIT, type RunnerManagerRow, type RunnerRow, type RunnerType } from './runner-row.js';

/** Authentication tokens of runners created through `POST /user/runners`. */
export const CREATED_TOKEN_PREFIX = 'fkrt-';
/** Authentication tokens of runners registered with a registration token. */
export const REGISTERED_TOKEN_PREFIX = 'fkrtr-';

export type RegistrationType = RunnerRow['registration_type'];

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

const SETTING_COLUMNS = ['name', 'description', 'active', 'run_untagged', 'locked', 'access_level', 'maximum_timeout', 'maintenance_note'] as const;

function settingColumns(settings: RunnerSettings): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const key of SETTING_COLUMNS) if (settings[key] !== undefined) columns[key] = settings[key];
  return columns;
}

function newSecret(type: RunnerType, registrationType: RegistrationType) {
  const prefix = registrationType === 'authenticated_user' ? CREATED_TOKEN_PREFIX : REGISTERED_TOKEN_PREFIX;
  return generateToken(`${prefix}t${TYPE_DIGIT[type]}_`, 24);
}

const insertedId = (row: unknown) => (typeof row === 'object' && row !== null ? (row as { id: number }).id : (row as number));

export function createRunnerStore(db: Knex) {
  const runners = (trx: Knex = db) => trx<RunnerRow>('ci_runners');
  const findById = (id: number, trx: Knex = db) => runners(trx).where('id', id).first();

  async function replaceTags(trx: Knex, runnerId: number, tags: readonly string[]) {
    await trx('ci_runner_tags').where('runner_id', runnerId).delete();
    // One row at a time keeps the insertion order, which is the order tags are listed in.
    for (const name of tags) await trx('ci_runner_tags').insert({ runner_id: runnerId, name });
  }

  return {
    findById: (id: number) => findById(id),
    async findByToken(secret: string): Promise<RunnerRow | undefined> {
      return secret ? runners().where('token_digest', tokenDigest(secret)).first() : undefined;
    },
    async tagsOf(runnerId: number): Promise<string[]> {
      const rows: { name: string }[] = await db('ci_runner_tags').where('runner_id', runnerId).orderBy('id').select('name');
      return rows.map((row) => row.name);
    },
    /** Assigned projects, in the order they were assigned. */
    async projectIdsOf(runnerId: number): Promise<number[]> {
      const rows: { project_id: number }[] = await db('ci_runner_projects').where('runner_id', runnerId).orderBy('id').select('project_id');
      return rows.map((row) => row.project_id);
    },
    runnerProject: (runnerId: number, projectId: number) =>
      db('ci_runner_projects').where({ runner_id: runnerId, project_id: projectId }).first() as Promise<{ id: number; updated_at: unknown } | undefined>,
    /** The manager that contacted the server last. */
    latestManager: (runnerId: number) =>
      db<RunnerManagerRow>('ci_runner_managers')
        .where('runner_id', runnerId)
        .orderBy([
          { column: 'contacted_at', order: 'desc', nulls: 'last' },
          { column: 'id', order: 'desc' },
        ])
        .first(),

    async create(input: NewRunner): Promise<{ row: RunnerRow; secret: string }> {
      const secret = newSecret(input.runnerType, input.registrationType);
      const now = new Date();
      const row = await db.transaction(async (trx) => {
        const [inserted] = await trx('ci_runners')
          .insert({
            ...settingColumns(input),
            runner_type: input.runnerType,
            registration_type: input.registrationType,
            token_digest: tokenDigest(secret),
            creator_id: input.creatorId ?? null,
            group_id: input.groupId ?? null,
            owner_project_id: input.projectId ?? null,
            created_at: now,
            updated_at: now,
          })
          .returning('id');
        const id = insertedId(inserted);
        await replaceTags(trx, id, input.tag_list ?? []);
        if (input.projectId) await trx('ci_runner_projects').insert({ runner_id: id, project_id: input.projectId, created_at: now, updated_at: now });
        return (await findById(id, trx))!;
      });
      return { row, secret };
    },

    async update(runnerId: number, changes: RunnerSettings): Promise<RunnerRow> {
      return db.transaction(async (trx) => {
        await trx('ci_runners')
          .where('id', runnerId)
          .update({ ...settingColumns(changes), updated_at: new Date() });
        if (changes.tag_list !== undefined) await replaceTags(trx, runnerId, changes.tag_list);
        return (await findById(runnerId, trx))!;
      });
    },

    async remove(runnerIds: readonly number[]) {
      if (runnerIds.length === 0) return;
      await db.transaction(async (trx) => {
        for (const table of ['ci_runner_tags', 'ci_runner_managers', 'ci_runner_projects']) await trx(table).whereIn('runner_id', runnerIds).delete();
        await trx('ci_runners').whereIn('id', runnerIds).delete();
      });
    },

    /** A new authentication token; the old one stops working at once. */
    async resetToken(runner: RunnerRow): Promise<string> {
      const secret = newSecret(runner.runner_type, runner.registration_type);
      await runners()
        .where('id', runner.id)
        .update({ token_digest: tokenDigest(secret), token_expires_at: null, updated_at: new Date() } as never);
      return secret;
    },

    /** Records that the runner (and the manager it reports) contacted the server. */
    async heartbeat(runnerId: number, manager: ManagerDetails) {
      const now = new Date();
      await db.transaction(async (trx) => {
        await trx('ci_runners').where('id', runnerId).update({ contacted_at: now });
        const details: Record<string, unknown> = { contacted_at: now, updated_at: now };
        for (const key of ['version', 'revision', 'platform', 'architecture'] as const) if (manager[key] != null) details[key] = manager[key];
        if (manager.ipAddress) details.ip_address = manager.ipAddress;
        const existing = await trx('ci_runner_managers').where({ runner_id: runnerId, system_xid: manager.systemXid }).first('id');
        if (existing) await trx('ci_runner_managers').where('id', existing.id).update(details);
        else await trx('ci_runner_managers').insert({ runner_id: runnerId, system_xid: manager.systemXid, created_at: now, ...details });
      });
    },

    async assign(runnerId: number, projectId: number) {
      const now = new Date();
      await db('ci_runner_projects').insert({ runner_id: runnerId, project_id: projectId, created_at: now, updated_at: now });
    },
    async unassign(runnerId: number, projectId: number) {
      await db('ci_runner_projects').where({ runner_id: runnerId, project_id: projectId }).delete();
    },
  };
}

export type RunnerStore = ReturnType<typeof createRunnerStore>;
