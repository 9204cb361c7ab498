import { int, literal, str } from '../../domain/fields.ts';
import { issues } from '../../domain/validation-issues.ts';
import { EVENTS_PAGE_LIMIT, EVENT_TYPES } from '../../domain/vocabulary.ts';
import { decodeEventsCursor, listEventsPage, type FeedFilters } from '../../services/events/feed.ts';
import { retentionStart } from '../../services/events/prune.ts';
import type { AppContext, RouteDeps } from '../app-deps.ts';
import { partnerOf } from '../request-context.ts';
import { route, routeModule } from '../route.ts';

const QUERY = {
  limit: {
    parse: int({ ge: EVENTS_PAGE_LIMIT.min, le: EVENTS_PAGE_LIMIT.max }),
    default: EVENTS_PAGE_LIMIT.default,
    description: 'page size',
  },
  cursor: {
    parse: str(),
    description:
      "the previous page's `next_cursor`, unchanged. Signed and bound to the partner, the key's mode and the filters " +
      '(left out, they are the cursor\'s): a tampered or foreign cursor is a 422 `value_error` at `["query","cursor"]`.',
  },
  type: { parse: literal(EVENT_TYPES), description: 'only events of this type' },
  crew_unique_id: { parse: str({ minLength: 1, maxLength: 128 }), description: 'only events about this crew member' },
};

async function cursorOf(ctx: AppContext, deps: RouteDeps, sent: string | undefined) {
  return sent === undefined ? null : decodeEventsCursor((await deps.signingKeys()).eventsCursor, sent, partnerOf(ctx));
}

/**
 * `GET /api/v2/events`: the events created for the calling partner, oldest first, with their
 * delivery state, kept SVC_EVENT_RETENTION_DAYS. No scope of its own: each event is listed only
 * while the key holds that event type's scope and the crew member's consent allows it.
 */
export const eventsRoutes = routeModule('events', [
  route({
    method: 'get',
    path: '/api/v2/events',
    access: 'partner',
    query: QUERY,
    // Filters other than the cursor's make it a foreign cursor, in the same 422 as the other parameters.
    async checkQuery(ctx, query, deps) {
      if (query.cursor === undefined) return [];
      const cursor = await cursorOf(ctx, deps, query.cursor);
      const clash =
        cursor &&
        ((query.type !== undefined && query.type !== cursor.filters.type) ||
          (query.crew_unique_id !== undefined && query.crew_unique_id !== cursor.filters.crewUniqueId));
      return !cursor || clash ? [issues.valueError(['query', 'cursor'], query.cursor, 'invalid cursor')] : [];
    },
    doc: {
      operationId: 'listEvents',
      tags: ['webhooks'],
      summary: 'The events created for you, oldest first: catch up on what your endpoint missed',
      description:
        'Any partner key; no scope of its own. Each item is the envelope svc delivers (see `webhooks`) with its delivery ' +
        'state. An event is listed only while it passes the rule a webhook passes when it is sent: the crew member is on your ' +
        "fleet now, your key holds the event type's scope (and `crew:medical:read` for a medical-class document, or a compliance " +
        'summary whose `next_expiry_date` is a medical expiry) and the crew ' +
        "member's consent still allows it. Events are kept 30 days by default (the operator's " +
        "`SVC_EVENT_RETENTION_DAYS`). `svc sync` creates events for live data only: a test key's list is empty. Keyset pages on " +
        '(created, event_id): events created between pages are neither skipped nor repeated; a page may hold fewer than `limit` ' +
        'items when events you can no longer see are skipped.',
      responses: { 200: { description: 'A page of events', schema: 'EventsPage' } },
    },
    async handle(ctx, { query }, deps) {
      const cursor = await cursorOf(ctx, deps, query.cursor);
      const filters: FeedFilters = cursor?.filters ?? {
        ...(query.type !== undefined ? { type: query.type } : {}),
        ...(query.crew_unique_id !== undefined ? { crewUniqueId: query.crew_unique_id } : {}),
      };
      const { eventsCursor } = await deps.signingKeys();
      ctx.body = await listEventsPage(deps.db, partnerOf(ctx), eventsCursor, {
        filters,
        after: cursor?.after ?? null,
        limit: query.limit,
        since: retentionStart(deps.clock, deps.config.eventRetentionDays),
      });
    },
  }),
]);
