import { definePlugin, f, kernelServices, KERNEL_VERSION } from '@forgekit/kernel';
import { AccessLevel, coreAccessRef, coreEvents, coreGroupsRef, coreProjectsRef, coreSettingsRef, coreUsersRef } from '@forgekit/plugin-core/contracts';
import { issuesServiceRef } from '@forgekit/plugin-issues/contracts';
import { notesServiceRef } from '@forgekit/plugin-notes/contracts';
import { mergeRequestsServiceRef } from '@forgekit/plugin-merge-requests/contracts';
import { repositoryReadRef } from '@forgekit/plugin-repositories/contracts';
import * as v from 'valibot';
import { webhookEvents } from './contracts.js';
import { createDeliveryService, DELIVER_JOB, RECOVER_JOB } from './delivery/delivery-service.js';
import { createDeliveryStore } from './delivery/delivery-store.js';
import { listenToAwards } from './delivery/emoji-hooks.js';
import { listenToEventSources } from './delivery/event-sources.js';
import { listenToGroupMembers } from './delivery/member-hooks.js';
import { listenToMergeRequests } from './delivery/merge-request-hooks.js';
import { listenToNotes } from './delivery/note-hooks.js';
import { listenToSubgroups } from './delivery/subgroup-hooks.js';
import { listenToWikiPages } from './delivery/wiki-page-hooks.js';
import type { OutboundPolicy } from './delivery/outbound-guard.js';
import { WebHookDeliveryEntity } from './entities/web-hook-delivery.js';
import { WebHookLogEntity } from './entities/web-hook-log.js';
import { WebHookEntity } from './entities/web-hook.js';
import { historyRoutes } from './history/history-routes.js';
import { createLogStore } from './history/log-store.js';
import { testRoutes } from './hook-tests/test-routes.js';
import type { HookMount } from './hooks/hook-mount.js';
import { hookRoutes } from './hooks/hook-routes.js';
import { createHookService } from './hooks/hook-service.js';
import { createHookStore, type HookOwner } from './hooks/hook-store.js';
import { init } from './migrations/202611271110-init.js';
import { deliveries as deliveriesMigration } from './migrations/202611271400-deliveries.js';

export const WebhooksConfigSchema = v.object({
  /** How long a receiver may take to answer (GitLab's `webhook_timeout`). */
  timeoutSeconds: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(600)), 10),
});

export type WebhooksConfig = v.InferOutput<typeof WebhooksConfigSchema>;

const idsOfTraversalPath = (path: string) => path.split('/').filter(Boolean).map(Number);

/** Group and project webhooks: CRUD, delivery through the job queue, history, resend and test. */
export const webhooksPlugin = definePlugin<WebhooksConfig>({
  id: 'webhooks',
  compatibility: '^0.1.0',
  config: WebhooksConfigSchema,
  entities: [WebHookEntity, WebHookLogEntity, WebHookDeliveryEntity],
  migrations: [init, deliveriesMigration],
  requires: [coreAccessRef, coreGroupsRef, coreProjectsRef, coreSettingsRef, coreUsersRef],
  optional: [issuesServiceRef, mergeRequestsServiceRef, notesServiceRef, repositoryReadRef],
  register(ctx) {
    const database = ctx.resolve(kernelServices.database);
    const access = ctx.resolve(coreAccessRef);
    const groups = ctx.resolve(coreGroupsRef);
    const projects = ctx.resolve(coreProjectsRef);
    const users = ctx.resolve(coreUsersRef);
    const settings = ctx.resolve(coreSettingsRef);
    const rateLimits = ctx.resolve(kernelServices.rateLimits);
    const { externalUrl } = ctx.resolve(kernelServices.instance);

    settings.define('webhooks', 'outbound_local_requests_whitelist', f.array(f.string()), [] as string[]);
    settings.define('webhooks', 'deny_all_requests_except_allowed', f.boolean(), false);
    // GitLab's ops flags, kept as settings an administrator can change.
    settings.define('webhooks', 'auto_disabling_web_hooks', f.boolean(), false);
    settings.define('webhooks', 'web_hook_event_resend_api_endpoint_rate_limit', f.boolean(), true);
    settings.define('webhooks', 'web_hook_test_api_endpoint_rate_limit', f.boolean(), true);

    const policy = async (): Promise<OutboundPolicy> => {
      const all = await settings.all();
      return {
        allowLocal: all.allow_local_requests_from_web_hooks_and_services === true,
        allowlist: (all.outbound_local_requests_whitelist as string[] | undefined) ?? [],
        denyAll: all.deny_all_requests_except_allowed === true,
      };
    };
    const flag = (key: string) => async () => (await settings.get(key)) === true;
    const autoDisabling = flag('auto_disabling_web_hooks');

    const hookStore = createHookStore(database, ctx.resolve(kernelServices.secrets));
    const logs = createLogStore(database);
    const hooks = createHookService(hookStore, policy);
    const deliveries = createDeliveryStore(database);
    const delivery = createDeliveryService({
      database,
      hooks: hookStore,
      logs,
      deliveries,
      jobs: ctx.jobs,
      metrics: ctx.resolve(kernelServices.metrics),
      policy,
      autoDisabling,
      async groupsOfProject(projectId) {
        const project = await projects.findById(projectId);
        return project?.namespace.kind === 'group' ? idsOfTraversalPath(project.namespace.traversalPath) : [];
      },
      async groupsOfGroup(groupId) {
        const group = await groups.findById(groupId);
        return group ? idsOfTraversalPath(group.traversalPath) : [];
      },
      instanceUrl: externalUrl,
      userAgent: `Service/${KERNEL_VERSION}`,
      timeoutMs: ctx.config.timeoutSeconds * 1000,
      log: ctx.log,
    });
    // A receiver may hold a delivery up to the timeout (10 s by default): ten at once keep one slow
    // receiver from holding up every other hook of the process, as GitLab's many delivery threads do,
    // while bounding the outgoing connections a process opens.
    ctx.jobs.define(DELIVER_JOB, delivery.deliver, { concurrency: 10 });
    ctx.jobs.define(RECOVER_JOB, async () => void (await delivery.recover()));
    // Deliveries left waiting by a process that stopped or died are sent now.
    ctx.lifecycle.onStart(async () => {
      const waiting = await delivery.recover();
      if (waiting > 0) ctx.log.info({ waiting }, 'hook deliveries left waiting are queued again');
    });

    const mounts: HookMount[] = [
      {
        kind: 'group',
        path: '/groups/:id/hooks',
        owner: async (req) => ({ kind: 'group', id: (await access.requireGroup(req.user, req.params.id!, AccessLevel.OWNER)).group.id }),
        async projectsForTest(req, owner) {
          const group = await groups.findById(owner.id);
          return group ? access.visibleProjectIds(req.user, { underTraversalPath: group.traversalPath, limit: 20 }) : [];
        },
      },
      {
        kind: 'project',
        path: '/projects/:id/hooks',
        owner: async (req) => ({ kind: 'project', id: (await access.requireProject(req.user, req.params.id!, AccessLevel.MAINTAINER)).project.id }),
        projectsForTest: async (_req, owner) => [owner.id],
      },
    ];
    const issues = ctx.resolveOptional(issuesServiceRef);
    const mergeRequests = ctx.resolveOptional(mergeRequestsServiceRef);
    const sources = {
      projects,
      users,
      repositories: ctx.resolveOptional(repositoryReadRef),
      mergeRequests,
      issues,
      notes: ctx.resolveOptional(notesServiceRef),
      externalUrl,
    };
    for (const mount of mounts) {
      ctx.routes(
        ...hookRoutes(hooks, mount, autoDisabling),
        ...historyRoutes({ hooks, logs, delivery, rateLimits, autoDisabling, resendRateLimited: flag('web_hook_event_resend_api_endpoint_rate_limit') }, mount),
        ...testRoutes({ hooks, delivery, users, rateLimits, sources, rateLimited: flag('web_hook_test_api_endpoint_rate_limit') }, mount),
      );
    }

    ctx.events.on(webhookEvents.requested, (request) => delivery.publish(request));
    const publish = delivery.publish;
    listenToEventSources({ events: ctx.events, projects, users, issues, externalUrl, publish });
    if (mergeRequests) listenToMergeRequests({ ...sources, events: ctx.events, mergeRequests, publish });
    const noteSources = { ...sources, events: ctx.events, issues, publish };
    listenToNotes(noteSources);
    listenToAwards(noteSources);
    listenToGroupMembers({ events: ctx.events, groups, users, publish });
    listenToSubgroups({ events: ctx.events, groups, publish });
    listenToWikiPages({ events: ctx.events, projects, users, externalUrl, publish });

    const removeAllOf = async (owner: HookOwner) => {
      const ids = await hookStore.idsOf(owner);
      await logs.removeOfHooks(ids);
      await deliveries.removeOfHooks(ids);
      await hookStore.removeAllOf(owner);
    };
    ctx.events.on(coreEvents.projectDeleted, ({ projectId }) => removeAllOf({ kind: 'project', id: projectId }));
    ctx.events.on(coreEvents.groupDeleted, ({ groupId }) => removeAllOf({ kind: 'group', id: groupId }));
  },
});
