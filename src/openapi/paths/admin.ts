import { errorResponses, jsonResponse } from '../errors.ts';
import { ref, type PathItems } from '../types.ts';
import { OPERATOR_SECURITY, pathParam } from './common.ts';

export const PARTNER_ID = pathParam('partner_id', 'the partner');

const KEY_ID = pathParam('key_id', 'the key to revoke or delete');
const HARD = { name: 'hard', in: 'query', description: 'delete the key row entirely', schema: { type: 'boolean', default: false } };
const REVOKE_RESPONSES = {
  200: jsonResponse('Revoked or deleted', 'Empty'),
  ...errorResponses({ 403: ['insufficient_scope'], 404: ['key_not_found'], 409: ['operator_key_revoke_only'], 422: 'validation' }),
};
const REVOKE_RULES = 'Operator key (`svc_op_…`) only; a partner key gets 403 `insufficient_scope`, and so does an operator key tied to '
  + 'one partner on a path naming another. Revoking keeps the row (and is idempotent); `hard=true` removes it. Operator keys are '
  + 'revoked, never deleted (409). A revoked key is refused at once.';

export const adminKeyPaths: PathItems = {
  '/api/v2/admin/partners/{partner_id}/keys/{key_id}': {
    delete: {
      operationId: 'revokePartnerKey',
      tags: ['admin'],
      summary: 'Revoke (default) or delete a partner\'s key',
      description: `${REVOKE_RULES} A key of another partner, or of none, is 404.`,
      security: OPERATOR_SECURITY,
      parameters: [PARTNER_ID, KEY_ID, HARD],
      responses: REVOKE_RESPONSES,
    },
  },
  '/api/v2/admin/keys/{key_id}': {
    delete: {
      operationId: 'revokeKey',
      tags: ['admin'],
      summary: 'Revoke (default) or delete any key by its id',
      description: `${REVOKE_RULES} Any key is found by its id, operator keys that belong to no partner included; an operator `
        + 'key tied to a partner reaches only that partner\'s keys (others are 404).',
      security: OPERATOR_SECURITY,
      parameters: [KEY_ID, HARD],
      responses: REVOKE_RESPONSES,
    },
  },
};

const NO_STORE = { description: '`no-store`: the answer holds the signing secret', schema: { type: 'string', const: 'no-store' } };

/** A success response of the endpoint registration, which also carries Cache-Control. */
function endpointResponse(description: string) {
  const response = jsonResponse(description, 'WebhookEndpoint') as { headers: Record<string, unknown> };
  return { ...response, headers: { ...response.headers, 'Cache-Control': NO_STORE } };
}

export const adminWebhookPaths: PathItems = {
  '/api/v2/admin/partners/{partner_id}/webhook-endpoints': {
    post: {
      operationId: 'registerWebhookEndpoint',
      tags: ['admin'],
      summary: 'Register or rotate a partner\'s webhook endpoint',
      description: 'Operator key (`svc_op_…`) only; a partner key gets 403 `insufficient_scope`. One endpoint per partner: the first '
        + 'registration creates it (201), a later one replaces its URL, events, secret and status (200), keeping `endpoint_id` and '
        + '`created_at`. A `secret` is generated (`whsec_` + 32 random bytes, base64url) whenever the body has none, on rotation '
        + 'too: send the current secret to keep it. The answer carries the secret and is sent with `Cache-Control: no-store`. '
        + '`url` must be https and public (also after DNS resolution) unless the server runs with insecure webhooks allowed, which '
        + 'permits private addresses and plain http to loopback. A rejected secret is echoed as `"[redacted]"` in a 422.',
      security: OPERATOR_SECURITY,
      parameters: [PARTNER_ID],
      requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookEndpointRequest') } } },
      responses: {
        200: endpointResponse('The existing endpoint, rotated'),
        201: endpointResponse('The endpoint, created'),
        ...errorResponses({
          403: ['insufficient_scope'], 404: ['partner_not_found'], 413: ['payload_too_large'], 415: ['unsupported_media_type'], 422: 'validation',
        }),
      },
    },
  },
};
