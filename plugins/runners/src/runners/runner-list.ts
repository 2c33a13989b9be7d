/** One page of runners from a filtered query over `ci_runners as r`, ordered by id. */
import { page, totalFor, type Database, type RequestContext } from '@forgekit/kernel';
import type { Knex } from '@forgekit/kernel/orm';
import { CiRunner } from '../entities/runner.js';
import type { RunnerPresenter } from './runner-presenter.js';

export function createRunnerList(database: Database, presenter: RunnerPresenter) {
  return async function runnerPage(ctx: RequestContext, query: Knex.QueryBuilder) {
    const rows = await database.legacy.rows(CiRunner, query.clone().orderBy('r.id', 'asc').limit(ctx.page.perPage).offset(ctx.page.offset));
    const total = await totalFor(ctx.page, rows.length, () => database.legacy.count(query));
    return page(await presenter.list(rows, ctx.externalUrl), total);
  };
}

export type RunnerPage = ReturnType<typeof createRunnerList>;
