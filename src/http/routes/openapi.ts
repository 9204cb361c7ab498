import type { JsonObject } from '../../openapi/types.ts';
import { route, routeModule } from '../route.ts';

/**
 * `GET /openapi.json`: the OpenAPI 3.1 document partners read. No key needed. The document is
 * built once, when the app is, from every route's declaration (`apiDocument` in index.ts).
 */
export function openapiRoutes(document: () => JsonObject) {
  let built: JsonObject | undefined;
  return routeModule('openapi', [
    route({
      method: 'get',
      path: '/openapi.json',
      access: 'public',
      doc: {
        operationId: 'getOpenApiDocument',
        tags: ['operations'],
        summary: 'This document',
        description: 'No key. The OpenAPI 3.1 document of the partner API and of the webhooks it sends; `GET /docs` renders it.',
        responses: {
          200: { description: 'The OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } },
        },
      },
      async handle(ctx) {
        built ??= document();
        ctx.body = built;
      },
    }),
  ]);
}
