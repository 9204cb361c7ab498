import { utcDate } from '../../domain/document.ts';
import { EXPIRING_WINDOW_DAYS, FLEET_PAGE_LIMIT } from '../../domain/vocabulary.ts';
import { decodeFleetCursor, listFleetPage } from '../../services/read-api/fleet.ts';
import { requireScope } from '../../services/visibility/access.ts';
import type { AppContext, RouteDeps, RouteModule } from '../app-deps.ts';
import { partnerGuards } from '../middleware/guards.ts';
import { partnerOf } from '../request-context.ts';
import { int, issues, queryValues, readFields, str, throwValidation } from '../validation/index.ts';

const QUERY = {
  limit: { parse: int({ ge: FLEET_PAGE_LIMIT.min, le: FLEET_PAGE_LIMIT.max }), default: FLEET_PAGE_LIMIT.default },
  cursor: { parse: str() },
  include_documents_expiring_within_days: { parse: int({ ge: EXPIRING_WINDOW_DAYS.min, le: EXPIRING_WINDOW_DAYS.max }) },
};

/**
 * The query, with the cursor checked in the same 422 as the other parameters. A continuation
 * page keeps the cursor's window when none is given; a different window is a foreign cursor.
 */
async function readFleetQuery(ctx: AppContext, deps: RouteDeps) {
  const partner = partnerOf(ctx);
  const { value: q, issues: found } = readFields(queryValues(ctx), QUERY, 'query', null);
  let cursor = null;
  if (q.cursor !== undefined) {
    cursor = decodeFleetCursor((await deps.signingKeys()).fleetCursor, q.cursor, partner);
    const window = q.include_documents_expiring_within_days;
    if (!cursor || (window !== undefined && window !== cursor.windowDays)) {
      found.push(issues.valueError(['query', 'cursor'], q.cursor, 'invalid cursor'));
    }
  }
  if (found.length > 0) throwValidation(found);
  const windowDays = q.include_documents_expiring_within_days ?? cursor?.windowDays ?? EXPIRING_WINDOW_DAYS.default;
  return { limit: q.limit, windowDays, after: cursor?.after ?? null };
}

/** `GET /api/v2/employers/me/fleet` (vessels:fleet:read): the crew roster, a keyset page at a time. */
export const fleetRoutes: RouteModule = {
  name: 'fleet',
  register(router, deps) {
    router.get('/api/v2/employers/me/fleet', ...partnerGuards(deps), async (ctx) => {
      const partner = partnerOf(ctx);
      requireScope(partner, 'vessels:fleet:read');
      const q = await readFleetQuery(ctx, deps);
      const { fleetCursor } = await deps.signingKeys();
      ctx.body = await listFleetPage(deps.db, partner, fleetCursor, { ...q, today: utcDate(deps.clock()) });
    });
  },
};
