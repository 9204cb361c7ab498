import type { Insertable } from 'kysely';
import type { Db, DeliveryAttemptsTable, OutboxEventsTable } from '../../src/store/database.ts';
import { insertEndpoint } from '../../src/store/repositories/webhook-endpoints-repo.ts';
import { seedPartnerRows } from './sync-world.ts';

/*
 * A delivery history with figures known by hand, for the delivery service level's readers
 * (svc admin delivery-report, the metrics). `NOW` is the clock of every reader.
 */

export const NOW = '2026-11-22T12:00:00.000Z';

/** The figures of a partner with nothing delivered, attempted or waiting, as the readers write them. */
export const NO_FIGURES = {
  delivered: 0,
  p50_seconds: null,
  p99_seconds: null,
  first_attempts: 0,
  first_attempts_delivered: 0,
  first_attempt_success_rate: null,
  waiting: 0,
  oldest_waiting_since: null,
  oldest_waiting_age_seconds: null,
};
const MIN = 60_000;
const at = (msBeforeNow: number) => new Date(Date.parse(NOW) - msBeforeNow).toISOString();

type Row = Insertable<OutboxEventsTable>;
type AttemptRow = Insertable<DeliveryAttemptsTable>;

function event(eventId: string, partnerId: string, createdAt: string, o: Partial<Row> = {}): Row {
  return {
    event_id: eventId,
    partner_id: partnerId,
    event_type: 'crew.status.changed',
    crew_unique_id: 'crew_1',
    occurred_at: createdAt,
    body: '{}',
    status: 'delivered',
    attempts: 1,
    next_attempt_at: createdAt,
    locked_by: null,
    locked_until: null,
    created_at: createdAt,
    delivered_at: null,
    ...o,
  };
}

function attempt(eventId: string, attemptNo: number, attemptedAt: string, outcome: AttemptRow['outcome']): AttemptRow {
  const delivered = outcome === 'delivered';
  return {
    event_id: eventId,
    attempt_no: attemptNo,
    attempted_at: attemptedAt,
    url: 'https://hooks.example/in',
    status_code: delivered ? 200 : 503,
    latency_ms: 5,
    error: null,
    response_body: null,
    outcome,
  };
}

/**
 * Seeds, with ptn_a, ptn_b and ptn_c and an endpoint each:
 * - ptn_a: 100 events, the i-th (1…100) delivered i minutes before NOW, i seconds after its creation;
 *   the first attempt of every tenth failed (a second one delivered), the others delivered. One
 *   more delivered two days ago after 9,999 s, and a test event (svc.test) 5 minutes ago.
 * - ptn_b: 4 events delivered 2 h ago after 600, 1,200, 1,800 and 3,600 s, each on a second attempt;
 *   one dead-lettered 5 h ago at its first attempt, replayed and delivered 90 minutes ago (a
 *   second attempt numbered 1); 2 waiting, created 3 h and 30 minutes ago, their first attempt failed.
 * - ptn_c: nothing.
 */
export async function seedDeliveryHistory(db: Db): Promise<void> {
  await seedPartnerRows(db, 'ptn_a', 'ptn_b', 'ptn_c');
  for (const partnerId of ['ptn_a', 'ptn_b', 'ptn_c']) {
    await insertEndpoint(db, {
      endpointId: `whe_${partnerId}`,
      partnerId,
      url: 'https://hooks.example/in',
      subscribedEvents: ['crew.status.changed'],
      secret: 'whsec_x',
      status: 'active',
      createdAt: at(72 * 60 * MIN),
      updatedAt: at(72 * 60 * MIN),
    });
  }
  const events: Row[] = [];
  const attempts: AttemptRow[] = [];
  const delivered = (id: string, partnerId: string, deliveredAgo: number, tookMs: number, firstFails: boolean) => {
    const deliveredAt = at(deliveredAgo);
    const createdAt = at(deliveredAgo + tookMs);
    events.push(event(id, partnerId, createdAt, { delivered_at: deliveredAt, attempts: firstFails ? 2 : 1 }));
    if (firstFails) attempts.push(attempt(id, 1, createdAt, 'retry'), attempt(id, 2, deliveredAt, 'delivered'));
    else attempts.push(attempt(id, 1, deliveredAt, 'delivered'));
  };
  for (let i = 1; i <= 100; i++) delivered(`evt_a_${i}`, 'ptn_a', i * MIN, i * 1000, i % 10 === 0);
  delivered('evt_a_old', 'ptn_a', 48 * 60 * MIN, 9_999_000, false);
  events.push(event('evt_a_test', 'ptn_a', at(5 * MIN), { event_type: 'svc.test', delivered_at: at(5 * MIN), sequence: null }));
  attempts.push(attempt('evt_a_test', 1, at(5 * MIN), 'delivered'));
  for (const [n, seconds] of [600, 1200, 1800, 3600].entries()) delivered(`evt_b_${n}`, 'ptn_b', 120 * MIN, seconds * 1000, true);
  events.push(event('evt_b_replayed', 'ptn_b', at(300 * MIN), { delivered_at: at(90 * MIN) }));
  attempts.push(attempt('evt_b_replayed', 1, at(300 * MIN), 'failed_permanent'), attempt('evt_b_replayed', 1, at(90 * MIN), 'delivered'));
  for (const [id, ago] of [
    ['evt_b_wait_1', 180 * MIN],
    ['evt_b_wait_2', 30 * MIN],
  ] as const) {
    events.push(event(id, 'ptn_b', at(ago), { status: 'pending', next_attempt_at: at(ago - 5 * MIN) }));
    attempts.push(attempt(id, 1, at(ago), 'retry'));
  }
  const numbered = new Map<string, number>();
  for (const e of events.filter((row) => row.event_type !== 'svc.test')) {
    numbered.set(e.partner_id, (numbered.get(e.partner_id) ?? 0) + 1);
    Object.assign(e, { sequence: numbered.get(e.partner_id), subject: 'status:crew_1' });
  }
  await db.insertInto('outbox_events').values(events).execute();
  await db.insertInto('delivery_attempts').values(attempts).execute();
}
