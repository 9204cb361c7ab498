import { errorResponses, jsonResponse } from '../errors.ts';
import type { PathItems } from '../types.ts';
import { OPERATOR_SECURITY, pathParam } from './common.ts';

export const PARTNER_ID = pathParam('partner_id', 'the partner');

export const adminKeyPaths: PathItems = {
  '/api/v2/admin/partners/{partner_id}/keys/{key_id}': {
    delete: {
      operationId: 'revokePartnerKey',
      tags: ['admin'],
      summary: 'Revoke (default) or delete a partner\'s key',
      description: 'Operator key (`svc_op_…`) only; a partner key gets 403 `insufficient_scope`. Revoking keeps the row (and is idempotent); '
        + '`hard=true` removes it. Operator keys are revoked, never deleted (409). A revoked key is refused by the read API at once.',
      security: OPERATOR_SECURITY,
      parameters: [
        PARTNER_ID,
        pathParam('key_id', 'the key to revoke or delete'),
        { name: 'hard', in: 'query', description: 'delete the key row entirely', schema: { type: 'boolean', default: false } },
      ],
      responses: {
        200: jsonResponse('Revoked or deleted', 'Empty'),
        ...errorResponses({ 403: ['insufficient_scope'], 404: ['key_not_found'], 409: ['operator_key_revoke_only'], 422: 'validation' }),
      },
    },
  },
};
