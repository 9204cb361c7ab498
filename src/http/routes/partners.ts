import { toPartnerMeWire } from '../../services/read-api/partner.ts';
import type { RouteModule } from '../app-deps.ts';
import { partnerGuards } from '../middleware/guards.ts';
import { partnerOf } from '../request-context.ts';

/** `GET /api/v2/partners/me`: who the key belongs to, its mode, scopes and rate limit. No scope needed. */
export const partnersRoutes: RouteModule = {
  name: 'partners',
  register(router, deps) {
    router.get('/api/v2/partners/me', ...partnerGuards(deps), async (ctx) => {
      ctx.body = toPartnerMeWire(partnerOf(ctx), deps.config);
    });
  },
};
