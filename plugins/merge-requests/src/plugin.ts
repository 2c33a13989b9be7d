import { definePlugin, kernelServices } from '@forgekit/kernel';
import { coreAccessRef, coreEvents, coreProjectsRef, coreUsersRef, ghostUser } from '@forgekit/plugin-core/contracts';
import { issuesServiceRef } from '@forgekit/plugin-issues/contracts';
import { labelEvents, labelsServiceRef } from '@forgekit/plugin-labels/contracts';
import { milestoneEventsServiceRef } from '@forgekit/plugin-milestone-events/contracts';
import { milestoneLifecycle, milestonesServiceRef } from '@forgekit/plugin-milestones/contracts';
import { notesServiceRef } from '@forgekit/plugin-notes/contracts';
import { branchProtectionRef, repositoryReadRef, repositoryWriteRef } from '@forgekit/plugin-repositories/contracts';
import { mergeRequestsServiceRef } from './contracts.js';
import { MergeRequestEntity } from './entities/merge-request.js';
import { MergeRequestLabelEntity } from './entities/merge-request-label.js';
import { MergeRequestUserEntity } from './entities/merge-request-user.js';
import { MergeRequestVersionEntity } from './entities/merge-request-version.js';
import { createMergeRequestGit } from './merge-requests/mr-git.js';
import { createMergeRequestLister, everyListableMergeRequest } from './merge-requests/mr-list.js';
import { createMergeRequestOrderer } from './merge-requests/mr-order.js';
import { milestoneMergeRequests } from './merge-requests/milestone-merge-requests.js';
import { mergeRequestQuickActions } from './merge-requests/mr-quick-actions.js';
import { positionChecker } from './merge-requests/mr-positions.js';
import { createMergeRequestPresenter } from './merge-requests/mr-presenter.js';
import { createMergeRequestRenderer } from './merge-requests/mr-render.js';
import { createMergeRequestReads } from './merge-requests/mr-reads.js';
import { mergeRequestRoutes } from './merge-requests/mr-routes.js';
import { createMergeRequestService } from './merge-requests/mr-service.js';
import { createMergeRequestStore } from './merge-requests/mr-store.js';
import { sourcePushes } from './merge-requests/source-pushes.js';
import { init } from './migrations/202611271100-init.js';
import { lockVersion } from './migrations/202611271800-lock-version.js';

/** Merge requests: iids, branches checked with git, diffs and commits from git, real merges, list filters, system notes and milestone events. */
export const mergeRequestsPlugin = definePlugin({
  id: 'merge-requests',
  compatibility: '^0.1.0',
  entities: [MergeRequestEntity, MergeRequestUserEntity, MergeRequestLabelEntity, MergeRequestVersionEntity],
  migrations: [init, lockVersion],
  requires: [
    coreAccessRef,
    coreUsersRef,
    coreProjectsRef,
    labelsServiceRef,
    milestonesServiceRef,
    milestoneEventsServiceRef,
    notesServiceRef,
    repositoryReadRef,
    repositoryWriteRef,
    branchProtectionRef,
  ],
  optional: [issuesServiceRef],
  provides: [mergeRequestsServiceRef],
  register(ctx) {
    const access = ctx.resolve(coreAccessRef);
    const users = ctx.resolve(coreUsersRef);
    const projects = ctx.resolve(coreProjectsRef);
    const labels = ctx.resolve(labelsServiceRef);
    const milestones = ctx.resolve(milestonesServiceRef);
    const milestoneEvents = ctx.resolve(milestoneEventsServiceRef);
    const notes = ctx.resolve(notesServiceRef);
    const reads = ctx.resolve(repositoryReadRef);
    const writes = ctx.resolve(repositoryWriteRef);
    const protection = ctx.resolve(branchProtectionRef);

    const store = createMergeRequestStore(ctx.resolve(kernelServices.database));
    ctx.provide(mergeRequestsServiceRef, createMergeRequestReads(store));
    const git = createMergeRequestGit(reads);
    const service = createMergeRequestService({
      store,
      git,
      access,
      users,
      projects,
      labels,
      milestones,
      milestoneEvents,
      notes,
      reads,
      writes,
      protection,
      events: ctx.events,
    });
    const present = createMergeRequestPresenter({
      store,
      git,
      reads,
      users,
      projects,
      labels,
      milestones,
      notes,
      cache: ctx.resolve(kernelServices.presented),
    });
    const lister = createMergeRequestLister({ access, users, labels, milestones, store });
    const orderFor = createMergeRequestOrderer({ store, milestones, labels, notes });
    milestones.registerItems(
      'merge_requests',
      milestoneMergeRequests({ store, lister, orderFor, present, externalUrl: ctx.resolve(kernelServices.instance).externalUrl }),
    );
    ctx.routes(
      ...mergeRequestRoutes({
        service,
        store,
        git,
        access,
        reads,
        writes,
        protection,
        lister,
        orderFor,
        present,
        render: createMergeRequestRenderer({ store, users, projects, labels, milestones, issues: ctx.resolveOptional(issuesServiceRef) }),
      }),
    );

    const resolve = async (user: Parameters<typeof access.requireProject>[0], projectIdOrPath: string, iid: string) => {
      const mr = await service.find(await access.requireProject(user, projectIdOrPath), iid);
      return { id: mr.id, iid: mr.iid, projectId: mr.projectId };
    };
    notes.registerNoteable('MergeRequest', 'merge_requests', resolve, {
      checkPosition: positionChecker({ reads, repositoryOf: service.repositoryOf }),
      quickActions: mergeRequestQuickActions({ service, store, access, writes }),
    });
    milestoneEvents.registerResource('MergeRequest', resolve);
    labels.registerCounts('merge_requests', (labelIds, { user, ...scope }) => store.countsPerLabel(labelIds, everyListableMergeRequest(access, user, scope)));

    writes.onRefsUpdated(sourcePushes({ store, git, reads, notes }));

    ctx.events.on(coreEvents.projectDeleted, ({ projectId }) => service.removeAllOfProject(projectId));
    ctx.events.on(coreEvents.userDeleted, async ({ userId }) => {
      await store.removeUser(userId);
      await store.handOver(userId, (await store.leftBehindBy(userId)) ? (await ghostUser(users)).id : null);
    });
    ctx.events.on(labelEvents.deleted, async ({ labelId }) => {
      await store.removeLabel(labelId);
    });
    ctx.events.on(milestoneLifecycle.deleted, async ({ milestoneId }) => {
      await store.clearMilestone(milestoneId);
    });
  },
});
