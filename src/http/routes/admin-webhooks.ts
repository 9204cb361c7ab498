import { registerWebhookEndpoint, toEndpointWire } from '../../services/webhooks/endpoints.ts';
import type { RouteModule } from '../app-deps.ts';
import { operatorGuards } from '../middleware/guards.ts';
import { operatorOf, pathParam } from '../request-context.ts';
import { readJsonBody } from '../validation/index.ts';

/**
 * `POST /api/v2/admin/partners/{partner_id}/webhook-endpoints` (operator key): register the
 * partner's webhook endpoint (201) or rotate the one it has (200); the answer carries the signing
 * secret, so it is never cached. The body is read here (415, 413, json_invalid) and validated by
 * the registration service, the same rules as `svc admin register-webhook` (422 issues, 404
 * partner_not_found). The audit row holds the operator key and the path, never the body.
 */
export const adminWebhooksRoutes: RouteModule = {
  name: 'admin-webhooks',
  register(router, deps) {
    router.post('/api/v2/admin/partners/:partner_id/webhook-endpoints', ...operatorGuards(deps), async (ctx) => {
      operatorOf(ctx); // throws if the guards above were ever dropped: this answer holds a secret
      ctx.set('Cache-Control', 'no-store');
      const body = await readJsonBody(ctx);
      const { created, endpoint } = await registerWebhookEndpoint(deps.db, pathParam(ctx, 'partner_id'), body, {
        clock: deps.clock,
        allowInsecure: deps.config.allowInsecureWebhooks,
        randomBytes: deps.randomBytes,
      });
      ctx.status = created ? 201 : 200;
      ctx.body = toEndpointWire(endpoint);
    });
  },
};
