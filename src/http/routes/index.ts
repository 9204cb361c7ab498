import type { RouteModule } from '../app-deps.ts';
import { adminKeysRoutes } from './admin-keys.ts';
import { adminWebhooksRoutes } from './admin-webhooks.ts';
import { complianceRoutes } from './compliance.ts';
import { crewRoutes } from './crew.ts';
import { docsRoutes } from './docs.ts';
import { documentsRoutes } from './documents.ts';
import { filesRoutes } from './files.ts';
import { fleetRoutes } from './fleet.ts';
import { healthRoutes } from './health.ts';
import { openapiRoutes } from './openapi.ts';
import { partnersRoutes } from './partners.ts';
import { vesselsRoutes } from './vessels.ts';

/**
 * Every route module of the API, mounted by createApp in this order. To add routes: write a
 * RouteModule in this folder (partner routes start with `...partnerGuards(deps)`, admin routes with
 * `...operatorGuards(deps)`), list it here, and describe its paths in src/openapi/paths/.
 */
export const routeModules: readonly RouteModule[] = [
  healthRoutes,
  openapiRoutes,
  docsRoutes,
  partnersRoutes,
  vesselsRoutes,
  fleetRoutes,
  crewRoutes,
  documentsRoutes,
  complianceRoutes,
  filesRoutes,
  adminKeysRoutes,
  adminWebhooksRoutes,
];
