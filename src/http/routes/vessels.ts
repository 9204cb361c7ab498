import { listVessels } from '../../services/read-api/partner.ts';
import type { RouteModule } from '../app-deps.ts';
import { partnerGuards } from '../middleware/guards.ts';
import { partnerOf } from '../request-context.ts';

/** `GET /api/v2/employers/me/vessels` (vessels:fleet:read): the fleet's vessels in the key's mode. */
export const vesselsRoutes: RouteModule = {
  name: 'vessels',
  register(router, deps) {
    router.get('/api/v2/employers/me/vessels', ...partnerGuards(deps), async (ctx) => {
      ctx.body = await listVessels(deps.db, partnerOf(ctx));
    });
  },
};
