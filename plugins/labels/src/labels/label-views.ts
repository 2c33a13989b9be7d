/** Labels as a caller sees them: with their subscription, and on request counts and project priorities. */
import type { Label, LabelCountScope } from '../contracts.js';
import { presentLabel } from './label-presenter.js';
import type { LabelService } from './label-service.js';

export interface ViewOptions {
  userId: number;
  /** Project routes: subscriptions within the project count, and labels show their priority. */
  projectId?: number;
  /** `with_counts`: count the items the caller sees, within this project or group. */
  counts?: LabelCountScope;
}

export function createLabelViews(labels: LabelService) {
  /** `subscribed`: the ids of the labels the user is subscribed to, when the list was read with them. */
  async function many(list: readonly Label[], options: ViewOptions, known?: { subscribed: ReadonlySet<number> }) {
    const ids = list.map((label) => label.id);
    const [subscribed, counts, priorities] = await Promise.all([
      known?.subscribed ?? labels.subscribed(options.userId, list, options.projectId),
      options.counts ? labels.countsOf(ids, options.counts) : undefined,
      options.projectId !== undefined ? labels.priorities(options.projectId, list) : undefined,
    ]);
    return list.map((label) =>
      presentLabel(label, {
        subscribed: subscribed.has(label.id),
        counts: counts?.get(label.id),
        project: priorities && { priority: priorities.get(label.id) ?? null },
      }),
    );
  }
  return {
    many,
    one: async (label: Label, options: ViewOptions) => (await many([label], options))[0]!,
  };
}

export type LabelViews = ReturnType<typeof createLabelViews>;
