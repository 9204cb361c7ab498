import { EXPIRING_WINDOW_DAYS, FLEET_PAGE_LIMIT } from '../../domain/vocabulary.ts';
import { errorResponses, jsonResponse } from '../errors.ts';
import type { PathItems } from '../types.ts';
import { PARTNER_SECURITY } from './common.ts';

export const fleetPaths: PathItems = {
  '/api/v2/employers/me/vessels': {
    get: {
      operationId: 'listVessels',
      tags: ['fleet'],
      summary: 'The partner\'s vessels',
      description: 'Scope `vessels:fleet:read`. Identity only, no crew data. Live keys list live vessels, test keys test-flagged vessels; `items` is empty when the partner has none.',
      security: PARTNER_SECURITY,
      'x-required-scopes': ['vessels:fleet:read'],
      responses: { 200: jsonResponse('The vessels', 'VesselList'), ...errorResponses({ 403: ['insufficient_scope'] }) },
    },
  },
  '/api/v2/employers/me/fleet': {
    get: {
      operationId: 'listFleet',
      tags: ['fleet'],
      summary: 'The crew on the partner\'s vessels, a page at a time',
      description: 'Scope `vessels:fleet:read`. One entry per crew member and vessel (assignment status invited, active or on_leave), '
        + 'ordered by vessel_id then crew_unique_id. Keyset pages: rows added or removed between pages are neither skipped nor repeated. '
        + '`status` and `background_check_status` are present only with the crew member\'s status consent and `crew:status:read`. '
        + 'A continuation page keeps the first page\'s window when `include_documents_expiring_within_days` is left out.',
      security: PARTNER_SECURITY,
      'x-required-scopes': ['vessels:fleet:read'],
      parameters: [
        { name: 'limit', in: 'query', description: 'page size', schema: { type: 'integer', minimum: FLEET_PAGE_LIMIT.min, maximum: FLEET_PAGE_LIMIT.max, default: FLEET_PAGE_LIMIT.default } },
        {
          name: 'cursor', in: 'query', schema: { type: 'string' },
          description: 'the previous page\'s `next_cursor`, unchanged. Signed and bound to the partner, the key\'s mode and the expiry window: a tampered or foreign cursor is a 422 `value_error` at `["query","cursor"]`.',
        },
        {
          name: 'include_documents_expiring_within_days', in: 'query',
          description: 'window for documents_expiring, echoed as expiring_within_days',
          schema: { type: 'integer', minimum: EXPIRING_WINDOW_DAYS.min, maximum: EXPIRING_WINDOW_DAYS.max, default: EXPIRING_WINDOW_DAYS.default },
        },
      ],
      responses: {
        200: jsonResponse('A page of the fleet', 'FleetPage'),
        ...errorResponses({ 403: ['insufficient_scope'], 422: 'validation' }),
      },
    },
  },
};
