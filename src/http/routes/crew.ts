import { crewPhoto, crewProfile, lookupCrew } from '../../services/read-api/crew.ts';
import { requireScope } from '../../services/visibility/access.ts';
import type { RouteModule } from '../app-deps.ts';
import { partnerGuards } from '../middleware/guards.ts';
import { baseUrl, partnerOf, pathParam } from '../request-context.ts';
import { parseJsonBody, refine, str } from '../validation/index.ts';

/** One @-sign with something on each side; anything else cannot name a crew member. */
const email = refine(str({ minLength: 1, maxLength: 320 }), (v) =>
  /^[^@\s]+@[^@\s]+$/.test(v.trim()) ? null : 'value is not a valid email address');

/** Crew lookup, profile and photo. */
export const crewRoutes: RouteModule = {
  name: 'crew',
  register(router, deps) {
    router.post('/api/v2/employers/me/crew/lookup', ...partnerGuards(deps), async (ctx) => {
      const partner = partnerOf(ctx);
      requireScope(partner, 'crew:status:read');
      const body = await parseJsonBody(ctx, { email: { parse: email, required: true } });
      const found = await lookupCrew(deps.db, partner, body.email);
      ctx.state.audit.crewUniqueId = found.crew_unique_id;
      ctx.body = found;
    });

    router.get('/api/v2/employers/me/crew/:crew_unique_id/profile', ...partnerGuards(deps), async (ctx) => {
      const id = pathParam(ctx, 'crew_unique_id');
      const photoUrl = `${baseUrl(ctx, deps.config)}/api/v2/employers/me/crew/${encodeURIComponent(id)}/photo`;
      ctx.body = await crewProfile(deps.db, partnerOf(ctx), id, photoUrl);
    });

    router.get('/api/v2/employers/me/crew/:crew_unique_id/photo', ...partnerGuards(deps), async (ctx) => {
      const photo = await crewPhoto(deps.db, partnerOf(ctx), pathParam(ctx, 'crew_unique_id'));
      ctx.set('Cache-Control', 'private, no-store');
      ctx.set('X-Content-Type-Options', 'nosniff');
      ctx.type = photo.contentType;
      ctx.body = photo.bytes;
    });
  },
};
