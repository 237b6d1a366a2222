/**
 * Every route the sandbox serves. Resource files export their Route[]; add one import
 * and one spread per resource.
 */
import type { Route } from '../router.js';
import type { World } from '../world.js';
import { voiceRoutes } from './voices.js';
import { agentRoutes } from './agents.js';
import { campaignRoutes } from './campaigns.js';
import { callRoutes } from './calls.js';
import { kbRoutes } from './kb.js';
import { setupWebhooks, webhookRoutes } from './webhooks.js';

export const routes: Route[] = [
  ...voiceRoutes,
  ...agentRoutes,
  ...campaignRoutes,
  ...callRoutes,
  ...kbRoutes,
  ...webhookRoutes,
];

/**
 * Run once per sandbox after the world exists and before state is resumed: subscribe
 * to world.onEvent, register world.onResume / world.onClose. Add one entry per feature
 * (for example webhook deliveries, knowledge-base indexing).
 */
export const setups: Array<(world: World) => void> = [setupWebhooks];
