import { buildOpenApiDocument, type Audience } from '../../openapi/document.ts';
import type { JsonObject } from '../../openapi/types.ts';
import type { RouteModule } from '../app-deps.ts';
import { adminIngestRoutes } from './admin-ingest.ts';
import { adminKeysRoutes } from './admin-keys.ts';
import { adminWebhooksRoutes } from './admin-webhooks.ts';
import { complianceRoutes } from './compliance.ts';
import { crewRoutes } from './crew.ts';
import { docsRoutes } from './docs.ts';
import { documentsRoutes } from './documents.ts';
import { eventsRoutes } from './events.ts';
import { filesRoutes } from './files.ts';
import { fleetComplianceRoutes } from './fleet-compliance.ts';
import { fleetRoutes } from './fleet.ts';
import { healthRoutes } from './health.ts';
import { openapiRoutes } from './openapi.ts';
import { partnersRoutes } from './partners.ts';
import { vesselsRoutes } from './vessels.ts';

/**
 * Every route module of the API, mounted by createApp in this order. To add routes: declare them
 * with `route(…)` in a `routeModule` in this folder (method, path, access, scopes, query, body,
 * the OpenAPI prose and responses, the handler; see src/http/route.ts) and list the module here.
 * The OpenAPI document is built from the same declarations.
 */
export const routeModules: readonly RouteModule[] = [
  healthRoutes,
  openapiRoutes((audience, serverUrl) => buildOpenApiDocument(declaredOperations(), { audience, serverUrl })),
  docsRoutes,
  partnersRoutes,
  vesselsRoutes,
  fleetRoutes,
  crewRoutes,
  documentsRoutes,
  complianceRoutes,
  fleetComplianceRoutes,
  eventsRoutes,
  filesRoutes,
  adminKeysRoutes,
  adminWebhooksRoutes,
  adminIngestRoutes,
];

/** Every declared route's operation. */
function declaredOperations() {
  return routeModules.flatMap((m) => m.routes ?? []);
}

/**
 * The OpenAPI document of every declared route: the union of the two svc serves (partners' at
 * GET /openapi.json, operators' at GET /api/v2/admin/openapi.json), which the suite checks every
 * answer against.
 */
export function apiDocument(): JsonObject {
  return buildOpenApiDocument(declaredOperations());
}

/** The document svc serves to `audience`, as it serves it from `serverUrl`. */
export function servedDocument(audience: Audience, serverUrl: string): JsonObject {
  return buildOpenApiDocument(declaredOperations(), { audience, serverUrl });
}
