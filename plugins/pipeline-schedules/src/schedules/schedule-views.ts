/** Schedules as the API returns them, with their owners, inputs and newest pipeline loaded. */
import type { Project, User, UserService } from '@forgekit/plugin-core/contracts';
import type { PipelineScheduleRow } from '../entities/pipeline-schedule.js';
import type { PipelineScheduleVariableRow } from '../entities/pipeline-schedule-variable.js';
import { pipelineBasic } from '../pipelines/pipeline-presenter.js';
import type { PipelineStore } from '../pipelines/pipeline-store.js';
import { scheduleEntity, scheduleVariableEntity } from './schedule-presenter.js';
import type { ScheduleStore } from './schedule-store.js';

export const projectPathOf = (project: Project) => `${project.namespace.fullPath}/${project.path}`;

export function createScheduleViews(store: ScheduleStore, pipelines: PipelineStore, users: UserService) {
  async function owners(rows: readonly PipelineScheduleRow[]) {
    const ids = [...new Set(rows.map((row) => row.ownerId).filter((id): id is number => typeof id === 'number'))];
    const found = await Promise.all(ids.map((id) => users.findById(id)));
    return new Map(found.filter((user): user is User => !!user).map((user) => [user.id, user]));
  }

  async function list(rows: readonly PipelineScheduleRow[], externalUrl: string) {
    const [byOwner, inputs] = await Promise.all([owners(rows), store.inputsOf(rows.map((row) => row.id))]);
    return rows.map((row) =>
      scheduleEntity(row, typeof row.ownerId === 'number' ? byOwner.get(row.ownerId) : undefined, inputs.get(row.id) ?? [], externalUrl),
    );
  }

  return {
    list,
    /** The details entity; `variables` only when the caller may read them. */
    async details(row: PipelineScheduleRow, project: Project, externalUrl: string, variables?: readonly PipelineScheduleVariableRow[]) {
      const [entity] = await list([row], externalUrl);
      const last = await pipelines.latestForSchedule(row.id);
      const body: Record<string, unknown> = { ...entity, last_pipeline: last ? pipelineBasic(last, projectPathOf(project), externalUrl) : null };
      if (variables) body.variables = variables.map(scheduleVariableEntity);
      return body;
    },
  };
}

export type ScheduleViews = ReturnType<typeof createScheduleViews>;
