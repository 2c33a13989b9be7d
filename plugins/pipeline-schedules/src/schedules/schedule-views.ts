/** Schedules as the API returns them, with their owners, inputs and newest pipeline loaded. */
import type { ProjectWithNamespace, UserRow, UserService } from '@forgekit/plugin-core';
import { pipelineBasic } from '../pipelines/pipeline-presenter.js';
import type { PipelineStore } from '../pipelines/pipeline-store.js';
import type { ScheduleRow, ScheduleVariableRow } from '../shared/rows.js';
import { scheduleEntity, scheduleVariableEntity } from './schedule-presenter.js';
import type { ScheduleStore } from './schedule-store.js';

export const projectPathOf = (project: ProjectWithNamespace) => `${project.ns_full_path}/${project.path}`;

export function createScheduleViews(store: ScheduleStore, pipelines: PipelineStore, users: UserService) {
  async function owners(rows: readonly ScheduleRow[]) {
    const ids = [...new Set(rows.map((row) => row.owner_id).filter((id): id is number => id !== null))];
    const found = await Promise.all(ids.map((id) => users.findById(id)));
    return new Map(found.filter((user): user is UserRow => !!user).map((user) => [user.id, user]));
  }

  async function list(rows: readonly ScheduleRow[], externalUrl: string) {
    const [byOwner, inputs] = await Promise.all([owners(rows), store.inputsOf(rows.map((row) => row.id))]);
    return rows.map((row) => scheduleEntity(row, row.owner_id === null ? undefined : byOwner.get(row.owner_id), inputs.get(row.id) ?? [], externalUrl));
  }

  return {
    list,
    /** The details entity; `variables` only when the caller may read them. */
    async details(row: ScheduleRow, project: ProjectWithNamespace, externalUrl: string, variables?: readonly ScheduleVariableRow[]) {
      const [entity] = await list([row], externalUrl);
      const last = await pipelines.latestForSchedule(row.id);
      const body: Record<string, unknown> = { ...entity, last_pipeline: last ? pipelineBasic(last, projectPathOf(project), externalUrl) : null };
      if (variables) body.variables = variables.map(scheduleVariableEntity);
      return body;
    },
  };
}

export type ScheduleViews = ReturnType<typeof createScheduleViews>;
