import { errorResponses, jsonResponse } from '../errors.ts';
import type { PathItems } from '../types.ts';
import { PARTNER_SECURITY } from './common.ts';

export const partnerPaths: PathItems = {
  '/api/v2/partners/me': {
    get: {
      operationId: 'getPartnerMe',
      tags: ['partner'],
      summary: 'Who the key belongs to',
      description: 'The partner identity, the key\'s mode (live or test), its effective scopes (sorted) and its rate limit. Any partner key; no scope needed.',
      security: PARTNER_SECURITY,
      responses: { 200: jsonResponse('The partner', 'PartnerMe'), ...errorResponses({}) },
    },
  },
};
