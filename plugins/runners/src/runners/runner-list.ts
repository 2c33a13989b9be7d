/** One page of runners from a filtered query over `ci_runners as r`, ordered by id. */
import { page, totalFor, type Database, type RequestContext } from '@forgekit/kernel';
import type { RunnerQuery } from './runner-filters.js';
import type { RunnerPresenter } from './runner-presenter.js';

export function createRunnerList(database: Database, presenter: RunnerPresenter) {
  return async function runnerPage(ctx: RequestContext, query: RunnerQuery) {
    const rows = await database.rows(query.clone().orderBy('r.id').limit(ctx.page.perPage).offset(ctx.page.offset));
    const total = await totalFor(ctx.page, rows.length, () => database.count(query));
    return page(await presenter.list(rows, ctx.externalUrl), total);
  };
}

export type RunnerPage = ReturnType<typeof createRunnerList>;
