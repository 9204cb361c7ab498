import { refine, str } from '../../domain/fields.ts';
import { crewPhoto, crewProfile, lookupCrew } from '../../services/read-api/crew.ts';
import { PROFILE_BLOCK_SCOPES } from '../../services/visibility/profile.ts';
import { route, routeModule } from '../route.ts';
import { baseUrl, partnerOf, pathParam } from '../request-context.ts';
import { sendStoredFile } from '../streamed-body.ts';

/** One @-sign with something on each side; anything else cannot name a crew member. */
const email = refine(str({ minLength: 1, maxLength: 320 }), (address) =>
  /^[^@\s]+@[^@\s]+$/.test(address.trim()) ? null : 'value is not a valid email address',
);

const IMAGE = { schema: { type: 'string', contentMediaType: 'image/jpeg' } };

/** Crew lookup, profile and photo. */
export const crewRoutes = routeModule('crew', [
  route({
    method: 'post',
    path: '/api/v2/employers/me/crew/lookup',
    access: 'partner',
    scopes: { all: ['crew:status:read'] },
    body: { fields: { email: { parse: email, required: true } }, schema: 'LookupRequest' },
    doc: {
      operationId: 'lookupCrew',
      tags: ['crew'],
      summary: "Resolve a crew member's e-mail address to their crew_unique_id",
      description: "The match is case-insensitive and ignores surrounding spaces; only crew on the partner's fleet resolve.",
      responses: { 200: { description: 'The crew member', schema: 'LookupResult' } },
      errors: { 404: ['crew_not_found'] },
    },
    async handle(ctx, { body }, deps) {
      const found = await lookupCrew(deps.db, partnerOf(ctx), body.email);
      ctx.state.audit.crewUniqueId = found.crew_unique_id;
      ctx.body = found;
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/employers/me/crew/:crew_unique_id/profile',
    etag: 'data',
    access: 'partner',
    scopes: { any: PROFILE_BLOCK_SCOPES },
    doc: {
      operationId: 'getCrewProfile',
      tags: ['crew'],
      summary: "A crew member's profile, one block per effective scope",
      description: "Needs the crew member's profile consent. A block whose scope is not effective is left out entirely.",
      responses: { 200: { description: 'The profile', schema: 'Profile' } },
      errors: { 403: ['consent_required'], 404: ['crew_not_found'] },
    },
    async handle(ctx, _input, deps) {
      const id = pathParam(ctx, 'crew_unique_id');
      const photoUrl = `${baseUrl(ctx, deps.config)}/api/v2/employers/me/crew/${encodeURIComponent(id)}/photo`;
      ctx.body = await crewProfile(deps.db, partnerOf(ctx), id, photoUrl);
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/employers/me/crew/:crew_unique_id/photo',
    etag: false,
    access: 'partner',
    scopes: { all: ['crew:profile:read', 'crew:professional:read'] },
    doc: {
      operationId: 'getCrewPhoto',
      tags: ['crew'],
      summary: "A crew member's photo, served by this service",
      description: 'Needs profile consent. Sent with `Cache-Control: private, no-store`.',
      responses: {
        200: {
          description: 'The image',
          content: { 'image/jpeg': IMAGE, 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
        },
      },
      errors: { 403: ['consent_required'], 404: ['crew_not_found', 'photo_not_found'] },
    },
    async handle(ctx, _input, deps) {
      const photo = await crewPhoto(deps.db, partnerOf(ctx), pathParam(ctx, 'crew_unique_id'));
      ctx.set('Cache-Control', 'private, no-store');
      ctx.set('X-Content-Type-Options', 'nosniff');
      sendStoredFile(ctx, photo);
    },
  }),
]);
