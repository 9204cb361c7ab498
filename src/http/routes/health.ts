import { storeAnswers } from '../../services/store-health.ts';
import { route, routeModule } from '../route.ts';

/** `GET /_internal/health`: 200 when the store answers within 2 s, else 503. No key needed. */
export const healthRoutes = routeModule('health', [
  route({
    method: 'get',
    path: '/_internal/health',
    access: 'public',
    doc: {
      operationId: 'getHealth',
      tags: ['operations'],
      summary: 'Health probe',
      description: 'No key. 200 when the store answers within 2 s, else 503.',
      responses: {
        200: { description: 'Healthy', schema: 'Health' },
        503: { description: 'The store does not answer', schema: 'Health' },
      },
    },
    async handle(ctx, _input, deps) {
      const ok = await storeAnswers(deps.db);
      ctx.set('Cache-Control', 'no-store');
      ctx.status = ok ? 200 : 503;
      ctx.body = ok ? { status: 'ok', store: 'ok' } : { status: 'unavailable', store: 'unavailable' };
    },
  }),
]);
