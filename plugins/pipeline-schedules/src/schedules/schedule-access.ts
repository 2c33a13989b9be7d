/**
 * Who may do what with pipeline schedules, after GitLab's project and schedule
 * policies: Reporters read them (anyone who sees the project, when its pipelines
 * are public); Developers create and play them; only the owner (or an admin)
 * edits one; Maintainers and the owner delete it or take it over.
 */
import { forbidden, notFound, type Principal, type RequestContext } from '@forgekit/kernel';
import { AccessLevel, type AccessService, type ProjectAccess, type ProjectService, type Project, type UserService } from '@forgekit/plugin-core/contracts';
import type { PipelineScheduleRow } from '../entities/pipeline-schedule.js';
import type { ScheduleStore } from './schedule-store.js';

export interface ProjectAbilities {
  project: Project;
  user: Principal;
  readSchedules: boolean;
  createSchedules: boolean;
  /** `create_pipeline`: play a schedule. */
  createPipelines: boolean;
  /** `set_pipeline_variables`: write schedule variables. */
  setPipelineVariables: boolean;
  /** `admin_pipeline`: Maintainers manage every schedule. */
  adminPipelines: boolean;
  /** `update_build`: what an owner needs to keep managing their schedule. */
  updateBuilds: boolean;
}

export interface ScheduleAbilities extends ProjectAbilities {
  schedule: PipelineScheduleRow;
  ownsSchedule: boolean;
  /** `admin_pipeline_schedule`: delete, take ownership, read variables. */
  adminSchedule: boolean;
  /** `update_pipeline_schedule`: edit the schedule and its variables. */
  updateSchedule: boolean;
}

export function abilitiesFor(access: ProjectAccess, user: Principal, buildsAccess: string, publicBuilds: boolean): ProjectAbilities {
  const member = Math.max(access.projectLevel ?? 0, access.groupLevel ?? 0) >= AccessLevel.GUEST;
  // The CI/CD feature: disabled for everyone, or limited to members.
  const ciVisible = buildsAccess !== 'disabled' && (buildsAccess !== 'private' || member || user.isAdmin);
  const level = ciVisible ? access.level : 0;
  // An archived project is read-only.
  const writeLevel = access.project.archived ? 0 : level;
  return {
    project: access.project,
    user,
    readSchedules: ciVisible && (level >= AccessLevel.REPORTER || (publicBuilds && access.canRead)),
    createSchedules: writeLevel >= AccessLevel.DEVELOPER,
    createPipelines: writeLevel >= AccessLevel.DEVELOPER,
    setPipelineVariables: writeLevel >= AccessLevel.DEVELOPER,
    adminPipelines: writeLevel >= AccessLevel.MAINTAINER,
    updateBuilds: writeLevel >= AccessLevel.DEVELOPER,
  };
}

export function scheduleAbilities(project: ProjectAbilities, schedule: PipelineScheduleRow): ScheduleAbilities {
  const ownsSchedule = schedule.ownerId === project.user.id;
  const adminSchedule = project.adminPipelines || (project.updateBuilds && ownsSchedule);
  const updateSchedule = project.updateBuilds && (project.user.isAdmin || ownsSchedule);
  return { ...project, schedule, ownsSchedule, adminSchedule, updateSchedule };
}

export function createScheduleAccess(access: AccessService, projects: ProjectService, users: UserService, store: ScheduleStore) {
  function abilitiesIn(found: ProjectAccess, user: Principal) {
    const settings = projects.settingsOf(found.project);
    return abilitiesFor(found, user, settings.builds_access_level, settings.public_jobs);
  }

  async function project(ctx: RequestContext): Promise<ProjectAbilities> {
    return abilitiesIn(await access.requireProject(ctx.user, ctx.params.id!), ctx.user!);
  }

  /** Whether a schedule's owner may still start its pipelines (an active user with `create_pipeline`). */
  async function ownerMayRun(project: Project, ownerId: number | null): Promise<boolean> {
    const owner = ownerId === null ? undefined : await users.findById(ownerId);
    if (owner?.state !== 'active') return false;
    const principal: Principal = {
      id: owner.id,
      username: owner.username,
      name: owner.name,
      isAdmin: owner.admin,
      external: owner.external,
      state: owner.state,
    };
    return abilitiesIn(await access.projectAccess(principal, project), principal).createPipelines;
  }

  /** The schedule in the path, or `404 Pipeline Schedule Not Found` when missing or unreadable. */
  async function schedule(ctx: RequestContext, scheduleId: number, inProject?: ProjectAbilities): Promise<ScheduleAbilities> {
    const abilities = inProject ?? (await project(ctx));
    const row = abilities.readSchedules ? await store.find(abilities.project.id, scheduleId) : undefined;
    if (!row) throw notFound('Pipeline Schedule');
    return scheduleAbilities(abilities, row);
  }

  return { project, schedule, ownerMayRun };
}

export type ScheduleAccess = ReturnType<typeof createScheduleAccess>;

/** GitLab's `authorize!`: 403 unless allowed. */
export function authorize(allowed: boolean) {
  if (!allowed) throw forbidden();
}
