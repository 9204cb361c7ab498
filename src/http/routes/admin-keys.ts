import { revokeKey } from '../../services/api-keys.ts';
import type { RouteModule } from '../app-deps.ts';
import { operatorGuards } from '../middleware/guards.ts';
import { operatorOf, pathParam } from '../request-context.ts';
import { queryBool } from '../validation/index.ts';

/**
 * Revoking keys (operator key): revoke by default, delete with `hard=true`; 200 `{}` (also for an
 * already revoked key), 404 key_not_found for an unknown key or one outside the caller's reach,
 * 409 operator_key_revoke_only for a hard delete of an operator key, 422 bool_parsing for a `hard`
 * that is not a boolean.
 *
 * - `DELETE /api/v2/admin/partners/{partner_id}/keys/{key_id}`: a key of that partner.
 * - `DELETE /api/v2/admin/keys/{key_id}`: any key by its id, operator keys of no partner included.
 *   An operator key tied to a partner reaches only that partner's keys here, as it does under the
 *   partner path (docs/decisions.md, "Keys and scopes").
 */
export const adminKeysRoutes: RouteModule = {
  name: 'admin-keys',
  register(router, deps) {
    router.delete('/api/v2/admin/partners/:partner_id/keys/:key_id', ...operatorGuards(deps), async (ctx) => {
      const hard = queryBool(ctx, 'hard', { default: false });
      await revokeKey(deps.db, pathParam(ctx, 'partner_id'), pathParam(ctx, 'key_id'), hard, deps.clock);
      ctx.body = {};
    });
    router.delete('/api/v2/admin/keys/:key_id', ...operatorGuards(deps), async (ctx) => {
      const hard = queryBool(ctx, 'hard', { default: false });
      const key = await revokeKey(deps.db, operatorOf(ctx).partnerId ?? undefined, pathParam(ctx, 'key_id'), hard, deps.clock);
      ctx.state.audit.partnerId = key.partnerId;
      ctx.body = {};
    });
  },
};
