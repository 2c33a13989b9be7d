import { kernelServices, definePlugin, f } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreProjectsRef, coreSettingsRef, coreUsersRef, ghostUser } from '@forgekit/plugin-core/contracts';
import { iterationEvents, iterationsServiceRef } from '@forgekit/plugin-iterations/contracts';
import { labelEvents, labelsServiceRef } from '@forgekit/plugin-labels/contracts';
import { milestoneEventsServiceRef } from '@forgekit/plugin-milestone-events/contracts';
import { milestoneLifecycle, milestonesServiceRef } from '@forgekit/plugin-milestones/contracts';
import { notesServiceRef } from '@forgekit/plugin-notes/contracts';
import { issuesServiceRef, type IssuesService } from './contracts.js';
import { IssueEntity } from './entities/issue.js';
import { IssueAssigneeEntity } from './entities/issue-assignee.js';
import { IssueLabelEntity } from './entities/issue-label.js';
import { createIssueLister, everyListableIssue } from './issues/issue-list.js';
import { createIssueOrderer } from './issues/issue-order.js';
import { createIssuePresenter } from './issues/issue-presenter.js';
import { milestoneIssues } from './issues/milestone-issues.js';
import { issueQuickActions } from './issues/issue-quick-actions.js';
import { issueRoutes } from './issues/issue-routes.js';
import { iterationRollOver } from './issues/iteration-roll-over.js';
import { createIssueService, fromContract, toContract } from './issues/issue-service.js';
import { createIssueStore } from './issues/issue-store.js';
import { createPromotionMerges } from './issues/promotion-merges.js';
import { init } from './migrations/202611242310-init.js';
import { projectOrderIndex } from './migrations/202611250300-project-order-index.js';
import { lockVersion } from './migrations/202611271400-lock-version.js';

/** GitLab's default `issues_create_limit`: issues per user and project per minute. */
const ISSUES_CREATE_LIMIT = 300;

/** Project issues: iids, assignees, labels, milestones, iterations, confidentiality, filters, system notes. */
export const issuesPlugin = definePlugin({
  id: 'issues',
  compatibility: '^0.1.0',
  entities: [IssueEntity, IssueAssigneeEntity, IssueLabelEntity],
  migrations: [init, projectOrderIndex, lockVersion],
  requires: [coreAccessRef, coreUsersRef, coreProjectsRef, coreSettingsRef, labelsServiceRef, milestonesServiceRef, milestoneEventsServiceRef, notesServiceRef],
  optional: [iterationsServiceRef],
  provides: [issuesServiceRef],
  register(ctx) {
    const access = ctx.resolve(coreAccessRef);
    const users = ctx.resolve(coreUsersRef);
    const labels = ctx.resolve(labelsServiceRef);
    const milestones = ctx.resolve(milestonesServiceRef);
    const milestoneEvents = ctx.resolve(milestoneEventsServiceRef);
    const notes = ctx.resolve(notesServiceRef);
    const iterations = ctx.resolveOptional(iterationsServiceRef);
    const externalUrl = ctx.resolve(kernelServices.instance).externalUrl;
    const settings = ctx.resolve(coreSettingsRef);
    settings.define(ctx.pluginId, 'issues_create_limit', f.integer({ min: 0, max: 2_147_483_647 }), ISSUES_CREATE_LIMIT);
    const rateLimits = ctx.resolve(kernelServices.rateLimits);
    const throttleCreate = async (userId: number, projectId: number) => {
      const limit = Number(await settings.get('issues_create_limit'));
      if (limit > 0) await rateLimits.consume(`issues_create:${projectId}:${userId}`, { points: limit, durationSeconds: 60 });
    };

    const store = createIssueStore(ctx.resolve(kernelServices.database));
    const service = createIssueService({ store, access, users, labels, milestones, milestoneEvents, notes, iterations, events: ctx.events });
    const present = createIssuePresenter({
      store,
      users,
      projects: ctx.resolve(coreProjectsRef),
      labels,
      milestones,
      notes,
      iterations,
      cache: ctx.resolve(kernelServices.presented),
    });
    const lister = createIssueLister({ access, users, labels, milestones, iterations, iterationIdsIn: (projectIds) => store.iterationIdsIn(projectIds) });
    const orderFor = createIssueOrderer({ store, milestones, labels });

    const issues: IssuesService = {
      findForUser: async (user, projectIdOrPath, iid) => toContract(await service.findForUser(user, projectIdOrPath, iid)),
      byIds: async (ids) => (await store.byIds(ids)).map(toContract),
      latestOf: async (projectId) => {
        const row = await store.latestOf(projectId);
        return row && toContract(row);
      },
      entity: async (issue) => {
        const [row] = await store.byIds([issue.id]);
        return (await present([row ?? fromContract(issue)], { externalUrl, full: true, withLabelsDetails: false }))[0]!;
      },
    };
    ctx.provide(issuesServiceRef, issues);
    ctx.routes(...issueRoutes({ service, store, access, projects: ctx.resolve(coreProjectsRef), lister, orderFor, present, throttleCreate }));

    const resolveIssue = async (user: Parameters<IssuesService['findForUser']>[0], projectIdOrPath: string, iid: string) => {
      const issue = await service.findForUser(user, projectIdOrPath, iid);
      return { id: issue.id, iid: issue.iid, projectId: issue.projectId, discussionLocked: issue.discussionLocked === true };
    };
    notes.registerNoteable('Issue', 'issues', resolveIssue, { quickActions: issueQuickActions({ service, store, access, users, labels, milestones }) });
    milestoneEvents.registerResource('Issue', resolveIssue);
    labels.registerCounts('issues', async (labelIds, { user, ...scope }) => store.countsPerLabel(labelIds, await everyListableIssue(access, user, scope)));
    milestones.registerItems('issues', milestoneIssues({ store, lister, present, externalUrl }));

    ctx.events.on(coreEvents.projectDeleted, ({ projectId }) => service.removeAllOfProject(projectId));
    ctx.events.on(coreEvents.userDeleted, async ({ userId, hardDelete }) => {
      await store.removeAssignee(userId);
      if (hardDelete) await service.removeAllOfAuthor(userId);
      // GitLab hands a deleted user's issues to the Ghost User, created the first time it is needed.
      if (await store.authoredAny(userId)) await store.handOver(userId, (await ghostUser(users)).id);
    });
    const merges = createPromotionMerges(ctx.resolve(kernelServices.database));
    ctx.events.on(labelEvents.merged, ({ from, to }) => merges.relinkLabels(from, to));
    ctx.events.on(milestoneLifecycle.merged, ({ from, to }) => merges.moveMilestone(from, to));
    ctx.events.on(labelEvents.deleted, async ({ labelId }) => {
      await store.removeLabel(labelId);
    });
    ctx.events.on(milestoneLifecycle.deleted, async ({ milestoneId }) => {
      await store.clearMilestone(milestoneId);
    });
    ctx.events.on(iterationEvents.deleted, async ({ iterationId }) => {
      await store.clearIteration(iterationId);
    });
    const rollOver = iterationRollOver(store);
    ctx.events.on(iterationEvents.closed, async (closed) => {
      await rollOver(closed);
    });
  },
});
