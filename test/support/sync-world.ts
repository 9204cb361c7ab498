import type { Insertable, Kysely } from 'kysely';
import type { Database, Db, OutboxEventsTable } from '../../src/store/database.ts';
import {
  replaceConsents,
  upsertAssignments,
  upsertCrew,
  upsertEmployers,
  upsertPartners,
  upsertVessels,
} from '../../src/store/repositories/reference-data-repo.ts';
import { CONSENT_CATEGORIES, type EventType } from '../../src/domain/vocabulary.ts';
import { insertEndpoint } from '../../src/store/repositories/webhook-endpoints-repo.ts';
import { DEFAULT_CLAIM_MS, type DeliveryDeps } from '../../src/sync/delivery/delivery-deps.ts';
import type { EventReport } from '../../src/sync/delivery/outcomes.ts';

export const T0 = '2026-11-22T10:00:00.000Z';
export const SECRET = 'whsec_test-secret-for-the-receiver-0123456789';

/** A clock tests move by hand. */
export interface TestClock {
  clock: () => Date;
  advance(ms: number): void;
  iso(): string;
}

export function testClock(start = T0): TestClock {
  let now = Date.parse(start);
  return {
    clock: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
    iso: () => new Date(now).toISOString(),
  };
}

/**
 * Delivery deps on loopback: real fetch, no DNS, and waits that move the test clock instead of
 * sleeping (recorded in `sleeps`); what the run did with each event, in the order it ended, in `ended`.
 */
export function testDeps(tc: TestClock, overrides: Partial<DeliveryDeps> = {}): DeliveryDeps & { sleeps: number[]; ended: EventReport[] } {
  const sleeps: number[] = [];
  const ended: EventReport[] = [];
  return {
    fetch: globalThis.fetch,
    resolve: async (host) => {
      throw new Error(`unexpected DNS lookup of ${host}`);
    },
    clock: tc.clock,
    wallClock: tc.clock,
    timeoutMs: 2000,
    allowInsecure: true,
    sleep: async (ms) => {
      sleeps.push(ms);
      tc.advance(ms);
    },
    random: () => 0.5,
    concurrency: 4,
    perEndpointConcurrency: 2,
    claimMs: DEFAULT_CLAIM_MS,
    budgetMs: 10 * 60_000,
    breakerFailures: 5,
    disableAfterDays: 5,
    sleeps,
    ended,
    onEventEnded: (event) => ended.push(event),
    ...overrides,
  };
}

/** Empties what delivery tests write, so each test starts from a clean outbox. */
export async function resetDelivery(db: Kysely<Database>): Promise<void> {
  for (const t of ['delivery_attempts', 'dead_letters', 'outbox_events', 'webhook_endpoints', 'endpoint_send_slots', 'leases'] as const) {
    await db.deleteFrom(t).execute();
  }
}

export async function seedPartners(db: Kysely<Database>, ...partnerIds: string[]): Promise<void> {
  await seedPartnerRows(db, ...partnerIds);
  // crew_1, whom seedEvent's events are about, is on every such partner's fleet and consents to
  // everything, so the access rule lets the events through until a test changes that.
  await seedCrewOnFleet(db, 'crew_1');
  for (const partnerId of partnerIds) await replaceConsents(db, 'crew_1', partnerId, CONSENT_CATEGORIES);
}

/** The partners (of emp_sync) alone: no crew, no consents. */
export async function seedPartnerRows(db: Kysely<Database>, ...partnerIds: string[]): Promise<void> {
  await upsertEmployers(db, [{ employer_id: 'emp_sync', name: 'Sync Shipping' }]);
  await upsertPartners(
    db,
    partnerIds.map((partner_id) => ({
      partner_id,
      name: `Partner ${partner_id}`,
      kind: 'customer' as const,
      employer_id: 'emp_sync',
      tier: 'management' as const,
      scope_overrides: null,
      upgraded: 0 as const,
      contract_scopes: null,
      rate_limit: null,
      created_at: T0,
    })),
  );
}

/** A crew member with an active assignment on emp_sync's vessel (the fleet of seedPartners' partners). */
export async function seedCrewOnFleet(db: Kysely<Database>, crewUniqueId: string): Promise<void> {
  await upsertVessels(db, [
    {
      vessel_id: 'ves_sync',
      employer_id: 'emp_sync',
      vessel_name: 'Sync Star',
      imo: null,
      mmsi: null,
      flag_state: 'GB',
      vessel_type: 'bulk_carrier',
      gross_tonnage: 30000,
      propulsion_kw: 9000,
      trading_area: 'unlimited',
      is_test: 0,
    },
  ]);
  await upsertCrew(db, [
    {
      crew_unique_id: crewUniqueId,
      name: `Crew ${crewUniqueId}`,
      rank: null,
      email: null,
      email_normalized: null,
      phone: null,
      country_code: null,
      nationality: null,
      languages: '[]',
      skills: '[]',
      years_experience: null,
      bio: null,
      date_of_birth: null,
      address: null,
      passport: null,
      visas: '[]',
      employment_history: '[]',
      photo_file_id: null,
      verification_status: 'verified',
      background_check_status: 'clear',
      profile_updated_at: T0,
      updated_at: T0,
    },
  ]);
  await upsertAssignments(db, [
    {
      assignment_id: `asg_sync_${crewUniqueId}`,
      crew_unique_id: crewUniqueId,
      vessel_id: 'ves_sync',
      role: 'master',
      position_name: null,
      status: 'active',
      as_of: T0,
    },
  ]);
}

export async function seedEndpoint(
  db: Kysely<Database>,
  partnerId: string,
  url: string,
  secret = SECRET,
  subscribedEvents: string[] = ['crew.status.changed'],
): Promise<void> {
  await insertEndpoint(db, {
    endpointId: `whe_${partnerId}`,
    partnerId,
    url,
    subscribedEvents,
    secret,
    status: 'active',
    createdAt: T0,
    updatedAt: T0,
  });
}

let seq = 0;

/** Writes outbox rows as they are, in any state (the sync diff writes pending events only). */
export async function insertOutboxRows(db: Db, rows: readonly Insertable<OutboxEventsTable>[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('outbox_events').values(rows).execute();
}

/** Writes one pending event, as the diff would; returns its id and exact body. */
export async function seedEvent(
  db: Kysely<Database>,
  partnerId: string,
  options: {
    eventId?: string;
    nextAttemptAt?: string;
    attempts?: number;
    eventType?: EventType;
    crewUniqueId?: string;
    data?: Record<string, unknown>;
  } = {},
): Promise<{ eventId: string; body: string }> {
  const eventId = options.eventId ?? `evt_test_${(++seq).toString().padStart(6, '0')}_${partnerId}`;
  const eventType = options.eventType ?? 'crew.status.changed';
  const crewUniqueId = options.crewUniqueId ?? 'crew_1';
  const body = JSON.stringify({
    schema_version: 1,
    event_id: eventId,
    event_type: eventType,
    occurred_at: T0,
    partner_id: partnerId,
    data: options.data ?? {
      crew_unique_id: crewUniqueId,
      verification_status: 'verified',
      background_check_status: 'clear',
      note: 'café ✓',
    },
  });
  await insertOutboxRows(db, [
    {
      event_id: eventId,
      partner_id: partnerId,
      event_type: eventType,
      crew_unique_id: crewUniqueId,
      occurred_at: T0,
      body,
      status: 'pending',
      attempts: options.attempts ?? 0,
      next_attempt_at: options.nextAttemptAt ?? T0,
      locked_by: null,
      locked_until: null,
      created_at: T0,
      delivered_at: null,
    },
  ]);
  return { eventId, body };
}
