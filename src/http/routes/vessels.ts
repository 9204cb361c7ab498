import { listVessels } from '../../services/read-api/partner.ts';
import { route, routeModule } from '../route.ts';
import { partnerOf } from '../request-context.ts';

/** `GET /api/v2/employers/me/vessels`: the fleet's vessels in the key's mode. */
export const vesselsRoutes = routeModule('vessels', [
  route({
    method: 'get',
    path: '/api/v2/employers/me/vessels',
    etag: 'data',
    access: 'partner',
    scopes: { all: ['vessels:fleet:read'] },
    doc: {
      operationId: 'listVessels',
      tags: ['fleet'],
      summary: "The partner's vessels",
      description:
        'Identity only, no crew data. Live keys list live vessels, test keys test-flagged vessels; `items` is empty when the partner has none.',
      responses: { 200: { description: 'The vessels', schema: 'VesselList' } },
    },
    async handle(ctx, _input, deps) {
      ctx.body = await listVessels(deps.db, partnerOf(ctx));
    },
  }),
]);
