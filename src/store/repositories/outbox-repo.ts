import { sql, type Insertable, type Selectable } from 'kysely';
import { TEST_EVENT_TYPE, type SuppressReason } from '../../domain/vocabulary.ts';
import type { NewOutboxEvent, OutboxEvent } from '../../domain/webhooks.ts';
import type { Db, OutboxEventsTable } from '../database.ts';
import { dialectOf } from '../dialect-of.ts';

/** A due event as the delivery run plans it: the event and its partner's active endpoint. */
export interface DueEvent {
  eventId: string;
  partnerId: string;
  eventType: string;
  attempts: number;
  nextAttemptAt: string;
  endpointId: string;
  url: string;
}

export function toOutboxEvent(row: Selectable<OutboxEventsTable>): OutboxEvent {
  return {
    eventId: row.event_id,
    partnerId: row.partner_id,
    eventType: row.event_type,
    crewUniqueId: row.crew_unique_id,
    occurredAt: row.occurred_at,
    body: row.body,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lockedBy: row.locked_by,
    lockedUntil: row.locked_until,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    suppressedReason: row.suppressed_reason ?? null,
    suppressedAt: row.suppressed_at ?? null,
    payloadScope: row.payload_scope ?? null,
    sequence: row.sequence === null ? null : Number(row.sequence),
    subject: row.subject,
  };
}

/**
 * `status = 'pending'` with the value written into the statement, not bound: the partial index
 * outbox_pending (src/store/migrations/1800-outbox-pending-index.ts) is used only where the
 * statement states its predicate itself, and it is what keeps the due count and the claims from
 * reading the finished events of the retention.
 */
const PENDING = sql.lit('pending' as const);

/** Rows per insert: 16 columns each, under SQLite's and Postgres's bound-parameter limits (as upsertRows). */
const INSERT_CHUNK = 2000;

function toOutboxRow(event: NewOutboxEvent): Insertable<OutboxEventsTable> {
  return {
    event_id: event.eventId,
    partner_id: event.partnerId,
    event_type: event.eventType,
    crew_unique_id: event.crewUniqueId,
    occurred_at: event.at,
    body: event.body,
    payload_scope: event.payloadScope,
    sequence: event.sequence,
    subject: event.subject,
    status: 'pending',
    attempts: 0,
    next_attempt_at: event.at,
    locked_by: null,
    locked_until: null,
    created_at: event.at,
    delivered_at: null,
  };
}

/** Writes new events, one statement per 2,000; the sync diff calls this inside its transaction. */
export async function insertOutboxEvents(db: Db, events: readonly NewOutboxEvent[]): Promise<void> {
  for (let i = 0; i < events.length; i += INSERT_CHUNK) {
    await db
      .insertInto('outbox_events')
      .values(events.slice(i, i + INSERT_CHUNK).map(toOutboxRow))
      .execute();
  }
}

export async function findOutboxEvent(db: Db, eventId: string): Promise<OutboxEvent | undefined> {
  const row = await db.selectFrom('outbox_events').selectAll().where('event_id', '=', eventId).executeTakeFirst();
  return row && toOutboxEvent(row);
}

/**
 * One page of events due at `now` whose partner has an active endpoint and which no live lease
 * holds, oldest due first; `after` is the last (nextAttemptAt, eventId) of the previous page.
 */
export async function listDueEvents(
  db: Db,
  now: string,
  limit: number,
  after?: { nextAttemptAt: string; eventId: string },
): Promise<DueEvent[]> {
  let query = db
    .selectFrom('outbox_events as o')
    .innerJoin('webhook_endpoints as e', 'e.partner_id', 'o.partner_id')
    .select(['o.event_id', 'o.partner_id', 'o.event_type', 'o.attempts', 'o.next_attempt_at', 'e.endpoint_id', 'e.url'])
    .where('o.status', '=', PENDING)
    .where('o.next_attempt_at', '<=', now)
    .where('e.status', '=', 'active')
    .where((eb) => eb.or([eb('o.locked_until', 'is', null), eb('o.locked_until', '<=', now)]));
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('o.next_attempt_at', '>', after.nextAttemptAt),
        eb.and([eb('o.next_attempt_at', '=', after.nextAttemptAt), eb('o.event_id', '>', after.eventId)]),
      ]),
    );
  }
  const rows = await query.orderBy('o.next_attempt_at').orderBy('o.event_id').limit(limit).execute();
  return rows.map((row) => ({
    eventId: row.event_id,
    partnerId: row.partner_id,
    eventType: row.event_type,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    endpointId: row.endpoint_id,
    url: row.url,
  }));
}

/** Pending events of partners without an active endpoint: kept, not attempted. */
export async function countHeldEvents(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('outbox_events as o')
    .leftJoin('webhook_endpoints as e', (j) => j.onRef('e.partner_id', '=', 'o.partner_id').on('e.status', '=', 'active'))
    .select(['o.partner_id', (eb) => eb.fn.countAll<string | number>().as('n')])
    .where('o.status', '=', 'pending')
    .where('e.endpoint_id', 'is', null)
    .groupBy('o.partner_id')
    .execute();
  return new Map(rows.map((r) => [r.partner_id, Number(r.n)]));
}

/** Events due at `now` (pending, next_attempt_at reached, no live claim) whose partner has an active endpoint. */
export async function countDueEvents(db: Db, now: string): Promise<number> {
  const row = await db
    .selectFrom('outbox_events as o')
    .innerJoin('webhook_endpoints as e', 'e.partner_id', 'o.partner_id')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('o.status', '=', PENDING)
    .where('o.next_attempt_at', '<=', now)
    .where('e.status', '=', 'active')
    .where((eb) => eb.or([eb('o.locked_until', 'is', null), eb('o.locked_until', '<=', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Claims up to `limit` of one partner's due events for a run, oldest due first, in one statement,
 * and returns them (fresh attempt count and body). On Postgres the rows are picked with
 * `FOR UPDATE SKIP LOCKED`, so deliverers claiming at once take disjoint sets without waiting on
 * each other; SQLite runs one writer at a time, so the statement is atomic as it stands. An event
 * is claimed only while pending, due and not held by a live claim, so it is never held twice.
 */
export async function claimDueEvents(
  db: Db,
  claim: { partnerId: string; runId: string; now: string; lockedUntil: string; limit: number },
): Promise<OutboxEvent[]> {
  let pick = db
    .selectFrom('outbox_events')
    .select('event_id')
    .where('partner_id', '=', claim.partnerId)
    .where('status', '=', PENDING)
    .where('next_attempt_at', '<=', claim.now)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', claim.now)]))
    .orderBy('next_attempt_at')
    .orderBy('event_id')
    .limit(claim.limit);
  if (dialectOf(db) === 'postgres') pick = pick.forUpdate().skipLocked();
  // Materialized, the pick runs once: inlined as `IN (subquery)`, Postgres may run it again for
  // rows a concurrent claim touched, and a claim then takes more than `limit` events.
  const rows = await db
    .with(
      (cte) => cte('picked').materialized(),
      () => pick,
    )
    .updateTable('outbox_events')
    .set({ locked_by: claim.runId, locked_until: claim.lockedUntil })
    .where('event_id', 'in', (eb) => eb.selectFrom('picked').select('picked.event_id'))
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', claim.now)]))
    .returningAll()
    .execute();
  return rows.map(toOutboxEvent).sort((a, b) => a.nextAttemptAt.localeCompare(b.nextAttemptAt) || a.eventId.localeCompare(b.eventId));
}

/** What one attempt changes on its event; applied only while `runId` holds the claim. */
export type EventProgress =
  | { status: 'delivered'; attempts: number; at: string }
  | { status: 'pending'; attempts: number; nextAttemptAt: string }
  | { status: 'dead'; attempts: number };

/** SQL types of the columns updateClaimedEvents sets per event (parameters are untyped on Postgres). */
const CAST = { attempts: 'integer', delivered_at: 'text', next_attempt_at: 'text' } as const;

/** One event's progress, as a run records it. */
export interface ClaimedProgress {
  eventId: string;
  runId: string;
  progress: EventProgress;
}

/**
 * Records attempts' effects on their events, each only while its run still holds the claim, in one
 * statement per kind of progress (delivered, pending, dead) however many events: per-event values
 * go in CASE expressions. Returns the ids of the events updated; an event missing from it had lost
 * its claim.
 */
export async function updateClaimedEvents(db: Db, items: readonly ClaimedProgress[]): Promise<Set<string>> {
  const held = new Set<string>();
  const groups = new Map<string, ClaimedProgress[]>();
  for (const item of items) {
    const key = `${item.runId}\u0000${item.progress.status}`;
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  for (const group of groups.values()) {
    for (let start = 0; start < group.length; start += 200) {
      const chunk = group.slice(start, start + 200);
      const { runId, progress } = chunk[0]!;
      const ids = chunk.map((c) => c.eventId);
      const rows = await db
        .updateTable('outbox_events')
        .set((eb) => {
          // CASE event_id WHEN 'evt_1' THEN v1 WHEN 'evt_2' THEN v2 … ELSE <unchanged> END
          const perEvent = <C extends 'attempts' | 'delivered_at' | 'next_attempt_at'>(
            column: C,
            value: (p: EventProgress) => string | number,
          ) => {
            let expression = eb
              .case('event_id')
              .when(chunk[0]!.eventId)
              .then(eb.cast<OutboxEventsTable[C]>(eb.val(value(chunk[0]!.progress)), CAST[column]));
            for (const x of chunk.slice(1))
              expression = expression.when(x.eventId).then(eb.cast<OutboxEventsTable[C]>(eb.val(value(x.progress)), CAST[column]));
            return expression.else(eb.ref(column)).end();
          };
          const attempts = perEvent('attempts', (p) => p.attempts);
          if (progress.status === 'delivered') {
            const at = perEvent('delivered_at', (p) => (p as { at: string }).at);
            return { status: 'delivered' as const, attempts, delivered_at: at, locked_by: null, locked_until: null };
          }
          if (progress.status === 'dead') return { status: 'dead' as const, attempts, locked_by: null, locked_until: null };
          return { attempts, next_attempt_at: perEvent('next_attempt_at', (p) => (p as { nextAttemptAt: string }).nextAttemptAt) };
        })
        .where('event_id', 'in', ids)
        .where('locked_by', '=', runId)
        .returning('event_id')
        .execute();
      for (const r of rows) held.add(r.event_id);
    }
  }
  return held;
}

/**
 * Extends a run's claim on an event that it still holds (even one that lapsed, as long as no other
 * deliverer took it since); false when the claim is gone.
 */
export async function renewClaim(db: Db, eventId: string, runId: string, lockedUntil: string): Promise<boolean> {
  const res = await db
    .updateTable('outbox_events')
    .set({ locked_until: lockedUntil })
    .where('event_id', '=', eventId)
    .where('locked_by', '=', runId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return res.numUpdatedRows === 1n;
}

/** Lets go of a run's claims on these events (they stay pending for a later run). */
export async function releaseEvents(db: Db, eventIds: readonly string[], runId: string): Promise<void> {
  for (let i = 0; i < eventIds.length; i += 500) {
    await db
      .updateTable('outbox_events')
      .set({ locked_by: null, locked_until: null })
      .where('event_id', 'in', eventIds.slice(i, i + 500))
      .where('locked_by', '=', runId)
      .execute();
  }
}

/** Lets go of every claim a run holds (a run that is gone); returns how many. */
export async function releaseClaimsOf(db: Db, runId: string): Promise<number> {
  const res = await db
    .updateTable('outbox_events')
    .set({ locked_by: null, locked_until: null })
    .where('locked_by', '=', runId)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Puts dead events back for delivery: same event_id, attempt count 0, due at `now`. */
export async function requeueDeadEvents(db: Db, eventIds: readonly string[], now: string): Promise<number> {
  let requeued = 0;
  for (let i = 0; i < eventIds.length; i += 500) {
    const res = await db
      .updateTable('outbox_events')
      .set({ status: 'pending', attempts: 0, next_attempt_at: now, locked_by: null, locked_until: null })
      .where('event_id', 'in', eventIds.slice(i, i + 500))
      .where('status', '=', 'dead')
      .executeTakeFirst();
    requeued += Number(res.numUpdatedRows);
  }
  return requeued;
}

/** Events the access rule refused, with the reason, grouped so one statement sets each reason. */
function byReason(items: readonly { eventId: string; reason: SuppressReason }[]): Map<SuppressReason, string[]> {
  const out = new Map<SuppressReason, string[]>();
  for (const item of items) out.set(item.reason, [...(out.get(item.reason) ?? []), item.eventId]);
  return out;
}

/**
 * Ends events a run holds as `suppressed` with their reason (one statement per reason), only while
 * `runId` holds the claim; returns the ids it changed.
 */
export async function suppressClaimedEvents(
  db: Db,
  items: readonly { eventId: string; reason: SuppressReason }[],
  runId: string,
  at: string,
): Promise<Set<string>> {
  const done = new Set<string>();
  for (const [reason, ids] of byReason(items)) {
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await db
        .updateTable('outbox_events')
        .set({ status: 'suppressed', suppressed_reason: reason, suppressed_at: at, locked_by: null, locked_until: null })
        .where('event_id', 'in', ids.slice(i, i + 500))
        .where('locked_by', '=', runId)
        .where('status', '=', 'pending')
        .returning('event_id')
        .execute();
      for (const r of rows) done.add(r.event_id);
    }
  }
  return done;
}

/** Ends dead events that a replay found refused by the access rule as `suppressed`, with the reason. */
export async function suppressDeadEvents(db: Db, items: readonly { eventId: string; reason: SuppressReason }[], at: string): Promise<void> {
  for (const [reason, ids] of byReason(items)) {
    for (let i = 0; i < ids.length; i += 500) {
      await db
        .updateTable('outbox_events')
        .set({ status: 'suppressed', suppressed_reason: reason, suppressed_at: at })
        .where('event_id', 'in', ids.slice(i, i + 500))
        .where('status', '=', 'dead')
        .execute();
    }
  }
}

/** The stored envelopes of these events, for the access rule. */
export async function findOutboxEvents(db: Db, eventIds: readonly string[]): Promise<OutboxEvent[]> {
  const out: OutboxEvent[] = [];
  for (let i = 0; i < eventIds.length; i += 500) {
    out.push(
      ...(
        await db
          .selectFrom('outbox_events')
          .selectAll()
          .where('event_id', 'in', eventIds.slice(i, i + 500))
          .execute()
      ).map(toOutboxEvent),
    );
  }
  return out;
}

/** Stores a test delivery's event (docs/webhooks.md, "Testing an endpoint"): sent once, never due, outside the sequence. */
export async function insertTestEvent(
  db: Db,
  event: { eventId: string; partnerId: string; at: string; body: string; delivered: boolean },
): Promise<void> {
  await db
    .insertInto('outbox_events')
    .values({
      event_id: event.eventId,
      partner_id: event.partnerId,
      event_type: TEST_EVENT_TYPE,
      crew_unique_id: null,
      occurred_at: event.at,
      body: event.body,
      payload_scope: null,
      sequence: null,
      subject: null,
      status: event.delivered ? 'delivered' : 'dead',
      attempts: 1,
      next_attempt_at: event.at,
      locked_by: null,
      locked_until: null,
      created_at: event.at,
      delivered_at: event.delivered ? event.at : null,
    })
    .execute();
}
