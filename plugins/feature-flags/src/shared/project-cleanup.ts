import type { Knex } from '@forgekit/kernel/orm';

/** Drops everything this plugin keeps for a project: flags with their strategies and scopes, user lists, the client token, counters. */
export async function deleteProjectData(db: Knex, projectId: number) {
  await db.transaction(async (trx) => {
    const flagIds = trx('feature_flags').select('id').where('project_id', projectId);
    const strategyIds = trx('feature_flag_strategies').select('id').whereIn('feature_flag_id', flagIds);
    await trx('feature_flag_scopes').whereIn('strategy_id', strategyIds).delete();
    await trx('feature_flag_strategies').whereIn('feature_flag_id', flagIds).delete();
    await trx('feature_flags').where('project_id', projectId).delete();
    await trx('feature_flag_user_lists').where('project_id', projectId).delete();
    await trx('feature_flags_clients').where('project_id', projectId).delete();
    await trx('feature_flag_internal_ids').where('project_id', projectId).delete();
  });
}
