import { buildOpenApiDocument } from '../../openapi/document.ts';
import type { RouteModule } from '../app-deps.ts';

/** `GET /openapi.json`: the OpenAPI 3.1 document partners read. No key needed. */
export const openapiRoutes: RouteModule = {
  name: 'openapi',
  register(router) {
    const document = buildOpenApiDocument();
    router.get('/openapi.json', async (ctx) => {
      ctx.body = document;
    });
  },
};
