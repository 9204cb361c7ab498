import { errorResponses, jsonResponse, responseHeaders } from '../errors.ts';
import { ref, type PathItems } from '../types.ts';
import { CREW_ID, PARTNER_SECURITY } from './common.ts';

export const crewPaths: PathItems = {
  '/api/v2/employers/me/crew/lookup': {
    post: {
      operationId: 'lookupCrew',
      tags: ['crew'],
      summary: 'Resolve a crew member\'s e-mail address to their crew_unique_id',
      description: 'Scope `crew:status:read`. The match is case-insensitive and ignores surrounding spaces; only crew on the partner\'s fleet resolve.',
      security: PARTNER_SECURITY,
      'x-required-scopes': ['crew:status:read'],
      requestBody: { required: true, content: { 'application/json': { schema: ref('LookupRequest') } } },
      responses: {
        200: jsonResponse('The crew member', 'LookupResult'),
        ...errorResponses({ 403: ['insufficient_scope'], 404: ['crew_not_found'], 413: ['payload_too_large'], 415: ['unsupported_media_type'], 422: 'validation' }),
      },
    },
  },
  '/api/v2/employers/me/crew/{crew_unique_id}/profile': {
    get: {
      operationId: 'getCrewProfile',
      tags: ['crew'],
      summary: 'A crew member\'s profile, one block per effective scope',
      description: 'Needs at least one of crew:profile:read, crew:contact:read, crew:professional:read, crew:experience:read, crew:personal:read '
        + '(else 403 naming crew:profile:read), and the crew member\'s profile consent. A block whose scope is not effective is left out entirely.',
      security: PARTNER_SECURITY,
      parameters: [CREW_ID],
      responses: {
        200: jsonResponse('The profile', 'Profile'),
        ...errorResponses({ 403: ['insufficient_scope', 'consent_required'], 404: ['crew_not_found'] }),
      },
    },
  },
  '/api/v2/employers/me/crew/{crew_unique_id}/photo': {
    get: {
      operationId: 'getCrewPhoto',
      tags: ['crew'],
      summary: 'A crew member\'s photo, served by this service',
      description: 'Scopes `crew:profile:read` and `crew:professional:read`, and profile consent. Sent with `Cache-Control: private, no-store`.',
      security: PARTNER_SECURITY,
      'x-required-scopes': ['crew:profile:read', 'crew:professional:read'],
      parameters: [CREW_ID],
      responses: {
        200: {
          description: 'The image',
          headers: responseHeaders(true),
          content: { 'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } }, 'image/png': { schema: { type: 'string', contentMediaType: 'image/png' } } },
        },
        ...errorResponses({ 403: ['insufficient_scope', 'consent_required'], 404: ['crew_not_found', 'photo_not_found'] }),
      },
    },
  },
};
