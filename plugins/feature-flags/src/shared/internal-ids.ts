import type { Knex } from '@forgekit/kernel/orm';

/** The next internal id of `usage` in a project (1, 2, ...); a deleted record's iid is not reused. */
export async function nextInternalId(db: Knex, projectId: number, usage: string): Promise<number> {
  const [row] = await db('feature_flag_internal_ids')
    .insert({ project_id: projectId, usage, last_value: 1 })
    .onConflict(['project_id', 'usage'])
    .merge({ last_value: db.raw('?? + 1', ['feature_flag_internal_ids.last_value']) })
    .returning('last_value');
  return Number((row as { last_value: number }).last_value);
}
