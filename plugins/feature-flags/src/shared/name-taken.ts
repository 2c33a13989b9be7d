import type { Knex } from '@forgekit/kernel/orm';

/** Whether another row of the project's `table` already has this name (names compare case-sensitively). */
export async function nameTaken(db: Knex, table: string, projectId: number, name: string | null, exceptId: number | null): Promise<boolean> {
  if (!name) return false;
  const query = db(table).where({ project_id: projectId, name });
  if (exceptId !== null) query.whereNot('id', exceptId);
  return !!(await query.first('id'));
}
