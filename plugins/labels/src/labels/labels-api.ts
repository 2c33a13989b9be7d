/** The `LabelsService` other plugins use: labels a project may use, by title or id, and how items show them. */
import type { ProjectService } from '@forgekit/plugin-core/contracts';
import type { Label, LabelDetails, LabelsService } from '../contracts.js';
import { projectParent, scopeOf, type LabelParent } from './label-parent.js';
import { DEFAULT_COLOR, hasErrors, labelErrors } from './label-rules.js';
import { presentDetails } from './label-presenter.js';
import type { LabelService } from './label-service.js';

const byTitle = (a: Label, b: Label) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id);

export function createLabelsApi(labels: LabelService, projects: Pick<ProjectService, 'findById'>): LabelsService {
  async function parentOf(projectId: number): Promise<LabelParent> {
    const project = await projects.findById(projectId);
    return project ? projectParent(project) : { kind: 'project', id: projectId, groupIds: [] };
  }

  function present(list: readonly Label[], withDetails: false): string[];
  function present(list: readonly Label[], withDetails: true): LabelDetails[];
  function present(list: readonly Label[], withDetails: boolean): string[] | LabelDetails[] {
    const sorted = [...list].sort(byTitle);
    return withDetails ? sorted.map(presentDetails) : sorted.map((label) => label.title);
  }

  return {
    async forProject(projectId, titles, options = {}) {
      const wanted = [...new Set(titles.map((title) => title.trim()).filter((title) => title !== ''))];
      if (wanted.length === 0) return [];
      const parent = await parentOf(projectId);
      const scope = scopeOf(parent);
      const found = new Map<string, Label>();
      // Nearest owner first: the first label seen for a title is the one used.
      for (const label of await labels.titled(scope, wanted)) if (!found.has(label.title)) found.set(label.title, label);
      if (options.create) {
        for (const title of wanted) {
          if (found.has(title) || hasErrors(labelErrors({ title, color: DEFAULT_COLOR, description: null }))) continue;
          const label = await labels
            .create(parent, { name: title, color: DEFAULT_COLOR }, options.create.userId)
            .catch(async () => (await labels.titled(scope, [title]))[0]);
          if (label) found.set(title, label);
        }
      }
      return wanted.flatMap((title) => found.get(title) ?? []);
    },
    byIds: (ids) => labels.byIds(ids),
    async idsMatching(projectId, titles) {
      const parent = await parentOf(projectId);
      return (await labels.titled(scopeOf(parent), titles)).map((label) => label.id);
    },
    async prioritiesIn(used) {
      const perProject = new Map<number, number[]>();
      for (const { projectId, labelId } of used) {
        const labelIds = perProject.get(projectId);
        if (labelIds) labelIds.push(labelId);
        else perProject.set(projectId, [labelId]);
      }
      const found = await Promise.all(
        [...perProject].map(async ([projectId, labelIds]) =>
          [...(await labels.prioritiesOf(projectId, labelIds))].map(([labelId, priority]) => ({ projectId, labelId, priority })),
        ),
      );
      return found.flat();
    },
    present,
    registerCounts: (kind, counter) => labels.registerCounts(kind, counter),
  };
}
