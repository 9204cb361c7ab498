import { STATS_WINDOW_HOURS } from '../../domain/delivery-level.ts';
import { int, literal, str } from '../../domain/fields.ts';
import { issues } from '../../domain/validation-issues.ts';
import { EVENTS_PAGE_LIMIT, EVENT_TYPES } from '../../domain/vocabulary.ts';
import { listEventAttempts } from '../../services/events/attempts.ts';
import { partnerDeliveryStats } from '../../services/events/delivery-stats.ts';
import { decodeEventsCursor, listEventsPage, resolveCursorSequence, type FeedFilters } from '../../services/events/feed.ts';
import { retentionStart } from '../../services/events/prune.ts';
import type { AppContext, RouteDeps } from '../app-deps.ts';
import { partnerOf, pathParam } from '../request-context.ts';
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
  after_sequence: {
    parse: int({ ge: 0, le: Number.MAX_SAFE_INTEGER }),
    description:
      'only events numbered above this `sequence` (the highest you hold: the feed then lists what came after it). ' +
      'Not with `cursor`, which carries its own position.',
  },
  type: { parse: literal(EVENT_TYPES), description: 'only events of this type' },
  crew_unique_id: { parse: str({ minLength: 1, maxLength: 128 }), description: 'only events about this crew member' },
};

async function cursorOf(ctx: AppContext, deps: RouteDeps, sent: string | undefined) {
  return sent === undefined ? null : decodeEventsCursor((await deps.signingKeys()).eventsCursor, sent, partnerOf(ctx));
}

/**
 * `GET /api/v2/events`: the events created for the calling partner in sequence order, with their
 * delivery state, kept SVC_EVENT_RETENTION_DAYS. No scope of its own: each event is listed only
 * while the key holds that event type's scope and the crew member's consent allows it.
 * `GET /api/v2/events/{event_id}/attempts`: one such event's delivery attempts, under the same rule.
 * `GET /api/v2/events/delivery-stats`: the partner's delivery service level, over its events the same rule lists by type.
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
      if (!cursor || clash) return [issues.valueError(['query', 'cursor'], query.cursor, 'invalid cursor')];
      return query.after_sequence === undefined
        ? []
        : [issues.valueError(['query', 'after_sequence'], query.after_sequence, 'not with cursor: the cursor carries its position')];
    },
    doc: {
      operationId: 'listEvents',
      tags: ['webhooks'],
      summary: 'The events created for you, in sequence order: catch up on what your endpoint missed',
      description:
        'Any partner key; no scope of its own. Each item is the envelope svc delivers (see `webhooks`) with its delivery ' +
        'state. An event is listed only while it passes the rule a webhook passes when it is sent: the crew member is on your ' +
        "fleet now, your key holds the event type's scope (and `crew:medical:read` for a medical-class document, or a compliance " +
        'summary whose `next_expiry_date` is a medical expiry) and the crew ' +
        "member's consent still allows it. Events are kept 30 days by default (the operator's " +
        "`SVC_EVENT_RETENTION_DAYS`). `svc sync` creates events for live data only: a test key's list is empty. Listed in " +
        '`sequence` order, your per-partner event number, each item with its `subject`: a number missing between two items is an ' +
        'event you cannot see now (or one past the retention). Keyset pages on the sequence: events created between pages are ' +
        'neither skipped nor repeated (numbers are taken in the transaction that writes the event, so none commits below one ' +
        'already listed); a page may hold fewer than `limit` items when events you can no longer see are skipped.',
      responses: { 200: { description: 'A page of events', schema: 'EventsPage' } },
    },
    async handle(ctx, { query }, deps) {
      const cursor = await cursorOf(ctx, deps, query.cursor);
      const filters: FeedFilters = cursor?.filters ?? {
        ...(query.type !== undefined ? { type: query.type } : {}),
        ...(query.crew_unique_id !== undefined ? { crewUniqueId: query.crew_unique_id } : {}),
      };
      const { eventsCursor } = await deps.signingKeys();
      const partner = partnerOf(ctx);
      ctx.body = await listEventsPage(deps.db, partner, eventsCursor, {
        filters,
        afterSequence: cursor ? await resolveCursorSequence(deps.db, partner, cursor) : (query.after_sequence ?? 0),
        limit: query.limit,
        since: retentionStart(deps.clock, deps.config.eventRetentionDays),
      });
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/events/:event_id/attempts',
    access: 'partner',
    doc: {
      operationId: 'listEventAttempts',
      tags: ['webhooks'],
      summary: 'The delivery attempts of one of your events',
      description:
        'Any partner key; shown under the rule of the events feed, asked now: an event the feed would list (created for you ' +
        "within the retention, your key holds its type's scope, the crew member on your fleet and the consent given) has its " +
        'attempts listed, oldest first: when each was made, how long it took, the status code your endpoint answered or, ' +
        'without an answer, the class of the error, the outcome, and at most the first 200 characters of the body your ' +
        'endpoint answered (nothing more of it is shown). `next_attempt_at` is when the next attempt is due. Any other event id ' +
        'is a 404 `not_found`, whether it exists or not.',
      responses: { 200: { description: "The event's attempts", schema: 'EventAttempts' } },
      errors: { 404: ['not_found'] },
    },
    async handle(ctx, _input, deps) {
      ctx.body = await listEventAttempts(
        deps.db,
        partnerOf(ctx),
        pathParam(ctx, 'event_id'),
        retentionStart(deps.clock, deps.config.eventRetentionDays),
      );
    },
  }),
  route({
    method: 'get',
    path: '/api/v2/events/delivery-stats',
    access: 'partner',
    query: {
      hours: {
        parse: int({ ge: STATS_WINDOW_HOURS.min, le: STATS_WINDOW_HOURS.max }),
        default: STATS_WINDOW_HOURS.default,
        description: 'the window: this many hours back from now, to now',
      },
    },
    doc: {
      operationId: 'getDeliveryStats',
      tags: ['webhooks'],
      summary: 'Your delivery service level: how fast and how reliably your events reach your endpoint',
      description:
        "Any partner key; no scope of its own. The figures the operator's delivery report gives for you (docs/operations.md, " +
        '"Delivery service level"), over the `hours` before now: how many of your events were delivered, the p50 and p99 ' +
        'of the time from their creation to their delivery (nearest rank), how many first attempts were made and how many ' +
        'of them delivered, and how many events wait now with the age of the oldest. `p99_target_seconds` is the level svc ' +
        "aims for. Only your own events count, of the types the events feed lists for your key (your key holds the type's " +
        "scope); `svc sync` creates events for live data only, so a test key's figures are all zero or null. Test events " +
        '(`svc.test`) are no part of it. Events are kept 30 days by default, so a window reaches back that far at most.',
      responses: { 200: { description: 'Your delivery service level over the window', schema: 'DeliveryStats' } },
    },
    async handle(ctx, { query }, deps) {
      ctx.body = await partnerDeliveryStats(deps.db, partnerOf(ctx), deps.clock(), query.hours);
    },
  }),
]);
