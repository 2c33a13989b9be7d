/** Labels as a caller sees them: with their subscription, and on request counts and project priorities. */
import { keptPages, sourceKey, versionKey, type FragmentCache, type JsonText, type RequestContext } from '@forgekit/kernel';
import type { Label, LabelCountScope } from '../contracts.js';
import { presentDetails, presentLabel } from './label-presenter.js';
import type { LabelService } from './label-service.js';

export interface ViewOptions {
  userId: number;
  /** Project routes: subscriptions within the project count, and labels show their priority. */
  projectId?: number;
  /** `with_counts`: count the items the caller sees, within this project or group. */
  counts?: LabelCountScope;
}

/**
 * What `presentLabel` adds to a label's details for a caller, in its order: these stay out of
 * the cached details and are filled on each request.
 */
const CALLER_FIELDS = ['open_issues_count', 'closed_issues_count', 'open_merge_requests_count', 'subscribed', 'priority', 'is_project_label'];

type ListPage = { items: readonly (JsonText | object)[]; total: number | null };

export function createLabelViews(labels: LabelService, cache?: FragmentCache) {
  const pages = keptPages<ListPage>();

  /**
   * A list page by caller, path, page and parameters (what it shows: labels, subscriptions,
   * priorities, counts of what the caller sees), kept under the change mark with the presented cache.
   */
  function keptPage(ctx: Pick<RequestContext, 'user' | 'path' | 'page' | 'externalUrl'>, input: object, read: () => Promise<ListPage>): Promise<ListPage> {
    if (!cache?.enabled) return read();
    const key = `${ctx.user?.id ?? ''}|${ctx.path}|${ctx.externalUrl}|${ctx.page.perPage}|${ctx.page.offset}|${JSON.stringify(input)}`;
    return pages(key, ctx.user, read);
  }

  /** `subscribed`: the ids of the labels the user is subscribed to, when the list was read with them. */
  async function extrasOf(list: readonly Label[], options: ViewOptions, known?: { subscribed: ReadonlySet<number> }) {
    const ids = list.map((label) => label.id);
    const [subscribed, counts, priorities] = await Promise.all([
      known?.subscribed ?? labels.subscribed(options.userId, list, options.projectId),
      options.counts ? labels.countsOf(ids, options.counts) : undefined,
      options.projectId !== undefined ? labels.priorities(options.projectId, list) : undefined,
    ]);
    return { subscribed, counts, priorities };
  }

  async function many(list: readonly Label[], options: ViewOptions, known?: { subscribed: ReadonlySet<number> }) {
    const { subscribed, counts, priorities } = await extrasOf(list, options, known);
    return list.map((label) =>
      presentLabel(label, {
        subscribed: subscribed.has(label.id),
        counts: counts?.get(label.id),
        project: priorities && { priority: priorities.get(label.id) ?? null },
      }),
    );
  }
  /**
   * `many` as JSON texts: a label's details (which read its row alone) come from the
   * presented cache by the row's version; the caller's fields are filled in. For labels as
   * read from the database, whose `lockVersion` is the row's.
   */
  async function list(labelList: readonly Label[], options: ViewOptions, known?: { subscribed: ReadonlySet<number> }): Promise<(JsonText | object)[]> {
    if (!cache?.enabled) return many(labelList, options, known);
    const { subscribed, counts, priorities } = await extrasOf(labelList, options, known);
    return labelList.map((label) => {
      const fragment = cache.fragment(versionKey('label', sourceKey('Label', label.id, label.lockVersion)), () => ({
        body: presentDetails(label) as unknown as Record<string, unknown>,
        live: CALLER_FIELDS,
      }));
      const count = counts?.get(label.id);
      return fragment.json({
        open_issues_count: count?.issues.opened,
        closed_issues_count: count?.issues.closed,
        open_merge_requests_count: count?.mergeRequests.opened,
        subscribed: subscribed.has(label.id),
        priority: priorities ? (priorities.get(label.id) ?? null) : undefined,
        is_project_label: priorities ? label.projectId !== null : undefined,
      });
    });
  }

  return {
    many,
    list,
    keptPage,
    one: async (label: Label, options: ViewOptions) => (await many([label], options))[0]!,
  };
}

export type LabelViews = ReturnType<typeof createLabelViews>;
