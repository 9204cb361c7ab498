import type { JsonObject } from '../types.ts';

/** Partner routes take a live or test key, as a Bearer token or in X-Partner-API-Key. */
export const PARTNER_SECURITY = [{ partnerBearer: [] }, { partnerApiKey: [] }];
export const OPERATOR_SECURITY = [{ operatorBearer: [] }];

export function pathParam(name: string, description: string): JsonObject {
  return { name, in: 'path', required: true, description, schema: { type: 'string' } };
}

export const CREW_ID = pathParam('crew_unique_id', 'the crew member, as in the fleet list or the crew lookup');
