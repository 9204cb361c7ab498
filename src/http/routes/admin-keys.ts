import { revokeKey } from '../../services/api-keys.ts';
import type { RouteModule } from '../app-deps.ts';
import { operatorGuards } from '../middleware/guards.ts';
import { pathParam } from '../request-context.ts';
import { queryBool } from '../validation/index.ts';

/**
 * `DELETE /api/v2/admin/partners/{partner_id}/keys/{key_id}` (operator key): revoke by default,
 * delete with `hard=true`. 200 `{}` (also for an already revoked key), 404 key_not_found for an
 * unknown key or one of another partner, 409 operator_key_revoke_only for a hard delete of an
 * operator key, 422 bool_parsing for a `hard` that is not a boolean.
 */
export const adminKeysRoutes: RouteModule = {
  name: 'admin-keys',
  register(router, deps) {
    router.delete('/api/v2/admin/partners/:partner_id/keys/:key_id', ...operatorGuards(deps), async (ctx) => {
      const hard = queryBool(ctx, 'hard', { default: false });
      await revokeKey(deps.db, pathParam(ctx, 'partner_id'), pathParam(ctx, 'key_id'), hard, deps.clock);
      ctx.body = {};
    });
  },
};
