/** In-memory stand-ins for the labels, milestones and milestone-events services, for tests of issues alone. */
import { definePlugin } from '@forgekit/kernel';
import { labelsServiceRef, type Label, type LabelCounter, type LabelsService } from '@forgekit/plugin-labels/contracts';
import { milestoneEventsServiceRef, type MilestoneChange, type MilestoneEventsService } from '@forgekit/plugin-milestone-events/contracts';
import { milestonesServiceRef, type Milestone, type MilestonesService } from '@forgekit/plugin-milestones/contracts';

export function createPlanningStubs() {
  const labels: Label[] = [];
  const milestones: Milestone[] = [];
  const milestoneChanges: MilestoneChange[] = [];
  const counters = new Map<string, LabelCounter>();

  const newLabel = (projectId: number, title: string): Label => {
    const label = {
      id: labels.length + 1,
      title,
      color: '#6699cc',
      description: null,
      projectId,
      groupId: null,
      archived: false,
      createdAt: new Date(),
      updatedAt: new Date(),
    };
    labels.push(label);
    return label;
  };

  function present(list: readonly Label[], withDetails: false): string[];
  function present(list: readonly Label[], withDetails: true): ReturnType<LabelsService['present']>;
  function present(list: readonly Label[], withDetails: boolean) {
    const sorted = [...list].sort((a, b) => a.title.localeCompare(b.title));
    if (!withDetails) return sorted.map((l) => l.title);
    return sorted.map((l) => ({
      id: l.id,
      name: l.title,
      color: l.color,
      description: l.description,
      description_html: '',
      text_color: '#FFFFFF',
      archived: l.archived,
    }));
  }

  const labelsService: LabelsService = {
    async forProject(projectId, titles, options) {
      return titles.flatMap((title) => {
        const found = labels.find((l) => l.projectId === projectId && l.title === title);
        if (found) return [found];
        return options?.create ? [newLabel(projectId, title)] : [];
      });
    },
    byIds: async (ids) => labels.filter((l) => ids.includes(l.id)),
    idsMatching: async (projectId, titles) => labels.filter((l) => l.projectId === projectId && titles.includes(l.title)).map((l) => l.id),
    present: present as LabelsService['present'],
    registerCounts(kind, counter) {
      counters.set(kind, counter);
    },
  };

  const milestonesService: MilestonesService = {
    forProject: async (projectId, id) => milestones.find((m) => m.id === id && m.projectId === projectId) ?? null,
    byIds: async (ids) => milestones.filter((m) => ids.includes(m.id)),
    canRead: async () => true,
    entity: (m) => ({ id: m.id, iid: m.iid, project_id: m.projectId, title: m.title, state: m.state }),
    async idsForFilter(scope, filter) {
      const inScope = milestones.filter((m) => m.projectId !== null && scope.projectIds.includes(m.projectId));
      if (typeof filter === 'object') return inScope.filter((m) => m.title === filter.title).map((m) => m.id);
      return inScope.filter((m) => (filter === 'Started' ? m.startDate !== null : m.dueDate !== null)).map((m) => m.id);
    },
  };

  const milestoneEvents: MilestoneEventsService = {
    async record(change) {
      milestoneChanges.push({ ...change, em: undefined });
    },
    registerResource() {},
    async removeAllFor() {},
  };

  const plugin = definePlugin({
    id: 'planning-stubs',
    compatibility: '^0.1.0',
    provides: [labelsServiceRef, milestonesServiceRef, milestoneEventsServiceRef],
    register(ctx) {
      ctx.provide(labelsServiceRef, labelsService);
      ctx.provide(milestonesServiceRef, milestonesService);
      ctx.provide(milestoneEventsServiceRef, milestoneEvents);
    },
  });

  return {
    plugin,
    labels,
    milestoneChanges,
    counters,
    addMilestone(projectId: number, title: string, dates: { startDate?: string; dueDate?: string } = {}): Milestone {
      const milestone: Milestone = {
        id: milestones.length + 1,
        iid: milestones.filter((m) => m.projectId === projectId).length + 1,
        projectId,
        groupId: null,
        title,
        description: null,
        state: 'active',
        dueDate: dates.dueDate ?? null,
        startDate: dates.startDate ?? null,
        createdAt: new Date(),
        updatedAt: new Date(),
      };
      milestones.push(milestone);
      return milestone;
    },
  };
}
