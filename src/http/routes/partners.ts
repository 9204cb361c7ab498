import { partnerMe } from '../../services/read-api/partner.ts';
import { route, routeModule } from '../route.ts';
import { partnerOf } from '../request-context.ts';

/** `GET /api/v2/partners/me`: who the key belongs to, its mode, scopes, rate limit and webhook public keys. No scope needed. */
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
        "The partner identity, the key's mode (live or test), its effective scopes (sorted), its rate limit and the public keys " +
        'that verify the Ed25519 (`v1a`) signatures of its webhook deliveries. Any partner key; no scope needed.',
      responses: { 200: { description: 'The partner', schema: 'PartnerMe' } },
    },
    async handle(ctx, _input, deps) {
      ctx.body = await partnerMe(deps.db, partnerOf(ctx), deps.config, deps.clock());
    },
  }),
]);
