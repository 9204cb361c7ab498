import type { Audience } from '../../openapi/document.ts';
import type { JsonObject } from '../../openapi/types.ts';
import type { AppContext } from '../app-deps.ts';
import type { Config } from '../../config/config.ts';
import { baseUrl } from '../request-context.ts';
import { route } from '../route.ts';
import { routeModuleHolding } from '../route-module-holding.ts';

const DOCUMENT = { description: 'The OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } };

/**
 * `GET /openapi.json`, the partners' OpenAPI 3.1 document (no key needed), and
 * `GET /api/v2/admin/openapi.json`, the operators' (operator key). Each is built once per app, when
 * first asked for, from every route's declaration (src/http/routes/index.ts); its `servers` entry is the
 * origin partners call (SVC_PUBLIC_BASE_URL, else the request's own), set per answer.
 */
export function openapiRoutes(build: (audience: Audience, serverUrl: string) => JsonObject) {
  const serve = (ctx: AppContext, config: Config, built: Map<Audience, JsonObject>, audience: Audience) => {
    const document = built.get(audience) ?? build(audience, '');
    built.set(audience, document);
    ctx.body = { ...document, servers: [{ url: baseUrl(ctx, config), description: 'this service' }] };
  };
  // The documents this app built, by audience.
  return routeModuleHolding(
    'openapi',
    () => new Map<Audience, JsonObject>(),
    (built) => [
      route({
        method: 'get',
        path: '/openapi.json',
        access: 'public',
        doc: {
          operationId: 'getOpenApiDocument',
          tags: ['operations'],
          summary: 'The partner API document',
          description:
            'No key. The OpenAPI 3.1 document of the partner API and of the webhooks it sends; `GET /docs` renders it. ' +
            'Operators read theirs at `GET /api/v2/admin/openapi.json`.',
          responses: { 200: DOCUMENT },
        },
        async handle(ctx, _input, deps) {
          serve(ctx, deps.config, built(), 'partner');
        },
      }),
      route({
        method: 'get',
        path: '/api/v2/admin/openapi.json',
        access: 'operator',
        doc: {
          operationId: 'getOperatorOpenApiDocument',
          tags: ['admin'],
          summary: 'The operator routes document',
          description: 'The OpenAPI 3.1 document of the admin routes and the health probe (the partner API is at `GET /openapi.json`).',
          responses: { 200: DOCUMENT },
        },
        async handle(ctx, _input, deps) {
          serve(ctx, deps.config, built(), 'operator');
        },
      }),
    ],
  );
}
