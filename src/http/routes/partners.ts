import { toPartnerMeWire } from '../../services/read-api/partner.ts';
import { route, routeModule } from '../route.ts';
import { partnerOf } from '../request-context.ts';

/** `GET /api/v2/partners/me`: who the key belongs to, its mode, scopes and rate limit. No scope needed. */
export const partnersRoutes = routeModule('partners', [
  route({
    method: 'get',
    path: '/api/v2/partners/me',
    access: 'partner',
    doc: {
      operationId: 'getPartnerMe',
      tags: ['partner'],
      summary: 'Who the key belongs to',
      description:
        "The partner identity, the key's mode (live or test), its effective scopes (sorted) and its rate limit. Any partner key; no scope needed.",
      responses: { 200: { description: 'The partner', schema: 'PartnerMe' } },
    },
    async handle(ctx, _input, deps) {
      ctx.body = toPartnerMeWire(partnerOf(ctx), deps.config);
    },
  }),
]);
