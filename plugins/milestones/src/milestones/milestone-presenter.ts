import type { Milestone, PresentedMilestone } from '../contracts.js';
import { compareDates, today } from './milestone-rules.js';

/** GitLab's Milestone entity: `project_id` for project milestones, `group_id` for group ones. */
export function presentMilestone(milestone: Milestone): PresentedMilestone {
  return {
    id: milestone.id,
    iid: milestone.iid,
    ...(milestone.projectId !== null ? { project_id: milestone.projectId } : {}),
    ...(milestone.groupId !== null ? { group_id: milestone.groupId } : {}),
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.createdAt,
    updated_at: milestone.updatedAt,
    due_date: milestone.dueDate,
    start_date: milestone.startDate,
    expired: milestone.dueDate !== null && compareDates(milestone.dueDate, today()) < 0,
    web_url: milestone.webUrl,
  };
}
