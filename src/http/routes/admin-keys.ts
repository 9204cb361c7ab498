import { bool } from '../../domain/fields.ts';
import { revokeKey } from '../../services/api-keys.ts';
import type { OperationDeclaration } from '../../openapi/operation.ts';
import { route, routeModule } from '../route.ts';
import { operatorOf, pathParam } from '../request-context.ts';

const QUERY = { hard: { parse: bool(), default: false, description: 'delete the key row entirely' } };

const RULES =
  'Operator key (`svc_op_…`) only; a partner key gets 403 `insufficient_scope`, and so does an operator key tied to ' +
  'one partner on a path naming another. Revoking keeps the row (and is idempotent); `hard=true` removes it. Operator keys are ' +
  'revoked, never deleted (409). A revoked key is refused at once.';

const doc = (operationId: string, summary: string, description: string): OperationDeclaration['doc'] => ({
  operationId,
  tags: ['admin'],
  summary,
  description: `${RULES} ${description}`,
  responses: { 200: { description: 'Revoked or deleted', schema: 'Empty' } },
  errors: { 404: ['key_not_found'], 409: ['operator_key_revoke_only'] },
});

/**
 * Revoking keys (operator key): revoke by default, delete with `hard=true`; 200 `{}` (also for an
 * already revoked key), 404 key_not_found for an unknown key or one outside the caller's reach,
 * 409 operator_key_revoke_only for a hard delete of an operator key, 422 bool_parsing for a `hard`
 * that is not a boolean. An operator key tied to a partner reaches only that partner's keys, under
 * either path (docs/decisions.md, "Keys and scopes"). The revocation takes effect at once in this
 * process (its key cache is cleared) and within half a second in every other process on the store
 * (src/services/auth-cache.ts).
 */
export const adminKeysRoutes = routeModule('admin-keys', [
  route({
    method: 'delete',
    path: '/api/v2/admin/partners/:partner_id/keys/:key_id',
    access: 'operator',
    query: QUERY,
    doc: doc('revokePartnerKey', "Revoke (default) or delete a partner's key", 'A key of another partner, or of none, is 404.'),
    async handle(ctx, { query }, deps) {
      await revokeKey(deps.db, pathParam(ctx, 'partner_id'), pathParam(ctx, 'key_id'), query.hard, deps.clock);
      deps.authenticator.invalidate();
      ctx.body = {};
    },
  }),
  route({
    method: 'delete',
    path: '/api/v2/admin/keys/:key_id',
    access: 'operator',
    query: QUERY,
    doc: doc(
      'revokeKey',
      'Revoke (default) or delete any key by its id',
      'Any key is found by its id, operator keys that belong to no ' +
        "partner included; an operator key tied to a partner reaches only that partner's keys (others are 404).",
    ),
    async handle(ctx, { query }, deps) {
      const key = await revokeKey(deps.db, operatorOf(ctx).partnerId ?? undefined, pathParam(ctx, 'key_id'), query.hard, deps.clock);
      deps.authenticator.invalidate();
      ctx.state.audit.partnerId = key.partnerId;
      ctx.body = {};
    },
  }),
]);
