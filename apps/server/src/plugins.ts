import type { ForgePlugin } from '@forgekit/kernel';
import { apiDocsPlugin } from '@forgekit/plugin-api-docs';
import { appearancePlugin } from '@forgekit/plugin-appearance';
import { badgesPlugin } from '@forgekit/plugin-badges';
import { ciVariablesPlugin } from '@forgekit/plugin-ci-variables';
import { clusterAgentsPlugin } from '@forgekit/plugin-cluster-agents';
import { corePlugin } from '@forgekit/plugin-core';
import { enterpriseUsersPlugin } from '@forgekit/plugin-enterprise-users';
import { featureFlagsPlugin } from '@forgekit/plugin-feature-flags';
import { followsPlugin } from '@forgekit/plugin-follows';
import { invitationsPlugin } from '@forgekit/plugin-invitations';
import { milestoneEventsPlugin } from '@forgekit/plugin-milestone-events';
import { milestonesPlugin } from '@forgekit/plugin-milestones';
import { pipelineSchedulesPlugin, TICK_JOB } from '@forgekit/plugin-pipeline-schedules';
import { labelsPlugin } from '@forgekit/plugin-labels';
import { iterationsPlugin, SCHEDULE_JOB as ITERATIONS_SCHEDULE_JOB } from '@forgekit/plugin-iterations';
import { issuesPlugin } from '@forgekit/plugin-issues';
import { keysPlugin } from '@forgekit/plugin-keys';
import { mergeRequestsPlugin } from '@forgekit/plugin-merge-requests';
import { notesPlugin } from '@forgekit/plugin-notes';
import { pagesDomainsPlugin, VERIFY_JOB as PAGES_VERIFY_JOB } from '@forgekit/plugin-pages-domains';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { projectAliasesPlugin } from '@forgekit/plugin-project-aliases';
import { repositoriesPlugin } from '@forgekit/plugin-repositories';
import { runnersPlugin } from '@forgekit/plugin-runners';
import { samlPlugin } from '@forgekit/plugin-saml';
import { RECOVER_JOB, storageMovesPlugin } from '@forgekit/plugin-storage-moves';
import { snippetsPlugin } from '@forgekit/plugin-snippets';
import { submodulesPlugin } from '@forgekit/plugin-submodules';
import { suggestionsPlugin } from '@forgekit/plugin-suggestions';
import { uploadsPlugin } from '@forgekit/plugin-uploads';
import { wikisPlugin } from '@forgekit/plugin-wikis';
import { RECOVER_JOB as WEBHOOKS_RECOVER_JOB, webhooksPlugin } from '@forgekit/plugin-webhooks';

/** Every plugin the reference server composes. */
export const allPlugins: readonly ForgePlugin<any>[] = [
  corePlugin,
  planLimitsPlugin,
  repositoriesPlugin,
  submodulesPlugin,
  storageMovesPlugin,
  ciVariablesPlugin,
  featureFlagsPlugin,
  pipelineSchedulesPlugin,
  runnersPlugin,
  clusterAgentsPlugin,
  milestonesPlugin,
  milestoneEventsPlugin,
  labelsPlugin,
  iterationsPlugin,
  notesPlugin,
  issuesPlugin,
  mergeRequestsPlugin,
  suggestionsPlugin,
  keysPlugin,
  followsPlugin,
  projectAliasesPlugin,
  uploadsPlugin,
  pagesDomainsPlugin,
  enterpriseUsersPlugin,
  badgesPlugin,
  snippetsPlugin,
  invitationsPlugin,
  samlPlugin,
  wikisPlugin,
  webhooksPlugin,
  appearancePlugin,
  apiDocsPlugin,
];

/** Background jobs the reference server runs unless the config names its own `schedules`. */
export const defaultSchedules: Record<string, string[]> = {
  '* * * * *': [TICK_JOB],
  '*/10 * * * *': [RECOVER_JOB, WEBHOOKS_RECOVER_JOB],
  '5 * * * *': [ITERATIONS_SCHEDULE_JOB],
  '*/15 * * * *': [PAGES_VERIFY_JOB],
};
