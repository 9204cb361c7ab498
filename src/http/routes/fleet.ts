import { utcDate } from '../../domain/clock.ts';
import { int, str } from '../../domain/fields.ts';
import { issues } from '../../domain/validation-issues.ts';
import { EXPIRING_WINDOW_DAYS, FLEET_PAGE_LIMIT } from '../../domain/vocabulary.ts';
import { decodeFleetCursor, listFleetPage } from '../../services/read-api/fleet.ts';
import type { AppContext, RouteDeps } from '../app-deps.ts';
import { route, routeModule } from '../route.ts';
import { partnerOf } from '../request-context.ts';

const bounded = (b: { min: number; max: number }) => int({ ge: b.min, le: b.max });

const QUERY = {
  limit: { parse: bounded(FLEET_PAGE_LIMIT), default: FLEET_PAGE_LIMIT.default, description: 'page size' },
  cursor: {
    parse: str(),
    description:
      "the previous page's `next_cursor`, unchanged. Signed and bound to the partner, the key's mode and the expiry window: " +
      'a tampered or foreign cursor is a 422 `value_error` at `["query","cursor"]`.',
  },
  include_documents_expiring_within_days: {
    parse: bounded(EXPIRING_WINDOW_DAYS),
    description: `window for documents_expiring, echoed as expiring_within_days; ${EXPIRING_WINDOW_DAYS.default} on a first page`,
  },
};

/** The cursor, when one was sent and is valid for this partner; a continuation page keeps its window. */
async function cursorOf(ctx: AppContext, deps: RouteDeps, sent: string | undefined) {
  return sent === undefined ? null : decodeFleetCursor((await deps.signingKeys()).fleetCursor, sent, partnerOf(ctx));
}

/** `GET /api/v2/employers/me/fleet`: the crew roster, a keyset page at a time. */
export const fleetRoutes = routeModule('fleet', [
  route({
    method: 'get',
    path: '/api/v2/employers/me/fleet',
    etag: 'data',
    access: 'partner',
    scopes: { all: ['vessels:fleet:read'] },
    query: QUERY,
    // A window other than the cursor's makes it a foreign cursor, in the same 422 as the other parameters.
    async checkQuery(ctx, query, deps) {
      if (query.cursor === undefined) return [];
      const cursor = await cursorOf(ctx, deps, query.cursor);
      const window = query.include_documents_expiring_within_days;
      return !cursor || (window !== undefined && window !== cursor.windowDays)
        ? [issues.valueError(['query', 'cursor'], query.cursor, 'invalid cursor')]
        : [];
    },
    doc: {
      operationId: 'listFleet',
      tags: ['fleet'],
      summary: "The crew on the partner's vessels, a page at a time",
      description:
        'One entry per crew member and vessel (assignment status invited, active or on_leave), ' +
        'ordered by vessel_id then crew_unique_id. Keyset pages: rows added or removed between pages are neither skipped nor repeated. ' +
        "`status` and `background_check_status` are present only with the crew member's status consent and `crew:status:read`. " +
        "A continuation page keeps the first page's window when `include_documents_expiring_within_days` is left out.",
      responses: { 200: { description: 'A page of the fleet', schema: 'FleetPage' } },
    },
    async handle(ctx, { query }, deps) {
      const cursor = await cursorOf(ctx, deps, query.cursor);
      const windowDays = query.include_documents_expiring_within_days ?? cursor?.windowDays ?? EXPIRING_WINDOW_DAYS.default;
      const { fleetCursor } = await deps.signingKeys();
      ctx.body = await listFleetPage(deps.db, partnerOf(ctx), fleetCursor, {
        limit: query.limit,
        windowDays,
        after: cursor?.after ?? null,
        today: utcDate(deps.clock()),
      });
    },
  }),
]);
