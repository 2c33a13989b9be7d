import type { ForgePlugin } from '@forgekit/kernel';
import { ciVariablesPlugin } from '@forgekit/plugin-ci-variables';
import { clusterAgentsPlugin } from '@forgekit/plugin-cluster-agents';
import { corePlugin } from '@forgekit/plugin-core';
import { featureFlagsPlugin } from '@forgekit/plugin-feature-flags';
import { planLimitsPlugin } from '@forgekit/plugin-plan-limits';
import { runnersPlugin } from '@forgekit/plugin-runners';

/** Every plugin the reference server composes. */
export const allPlugins: readonly ForgePlugin<any>[] = [
  corePlugin,
  planLimitsPlugin,
  ciVariablesPlugin,
  featureFlagsPlugin,
  runnersPlugin,
  clusterAgentsPlugin,
];
