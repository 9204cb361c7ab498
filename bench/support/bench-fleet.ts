import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/database.ts';
import type { NewOutboxEvent } from '../../src/domain/webhooks.ts';
import {
  replaceConsents,
  upsertAssignments,
  upsertCrew,
  upsertEmployers,
  upsertPartners,
  upsertVessels,
} from '../../src/store/repositories/reference-data-repo.ts';
import { insertEndpoint } from '../../src/store/repositories/webhook-endpoints-repo.ts';

/** Serves both signature schemes, so each delivery carries both (as a newly registered endpoint's do). */
export const BENCH_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
/** Crew the benchmark events are about, on every bench partner's fleet with every consent: the access rule lets all through. */
export const BENCH_CREW = 100;

/** Partners of emp_bench, each with an endpoint at `urlOf(partner)`, and BENCH_CREW crew on their fleet. */
export async function seedBenchFleet(
  db: Kysely<Database>,
  partners: readonly string[],
  urlOf: (partnerId: string) => string,
  now: string,
): Promise<void> {
  await upsertEmployers(db, [{ employer_id: 'emp_bench', name: 'Bench' }]);
  await upsertPartners(
    db,
    partners.map((partner_id) => ({
      partner_id,
      name: partner_id,
      kind: 'customer' as const,
      employer_id: 'emp_bench',
      tier: 'management' as const,
      scope_overrides: null,
      upgraded: 0 as const,
      contract_scopes: null,
      rate_limit: null,
      created_at: now,
    })),
  );
  await upsertVessels(db, [
    {
      vessel_id: 'ves_bench',
      employer_id: 'emp_bench',
      vessel_name: 'Bench Star',
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
  const crew = Array.from({ length: BENCH_CREW }, (_, i) => `crew_${i}`);
  await upsertCrew(
    db,
    crew.map((crew_unique_id) => ({
      crew_unique_id,
      name: crew_unique_id,
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
      verification_status: 'verified' as const,
      background_check_status: 'clear' as const,
      profile_updated_at: now,
      updated_at: now,
    })),
  );
  await upsertAssignments(
    db,
    crew.map((crew_unique_id) => ({
      assignment_id: `asg_${crew_unique_id}`,
      crew_unique_id,
      vessel_id: 'ves_bench',
      role: 'master',
      position_name: null,
      status: 'active' as const,
      as_of: now,
    })),
  );
  for (const partnerId of partners) {
    for (const c of crew) await replaceConsents(db, c, partnerId, ['status', 'profile', 'documents', 'compliance']);
    await insertEndpoint(db, {
      endpointId: `whe_${partnerId}`,
      partnerId,
      url: urlOf(partnerId),
      subscribedEvents: ['crew.status.changed'],
      secret: BENCH_SECRET,
      status: 'active',
      createdAt: now,
      updatedAt: now,
    });
  }
}

export function benchBody(eventId: string, partnerId: string, i: number, now: string): string {
  return JSON.stringify({
    schema_version: 1,
    event_id: eventId,
    event_type: 'crew.status.changed',
    occurred_at: now,
    partner_id: partnerId,
    data: { crew_unique_id: `crew_${i % BENCH_CREW}`, verification_status: 'verified', background_check_status: 'clear' },
  });
}

/** One pending event for `partnerId` about crew_(i mod BENCH_CREW), as the sync diff writes it. */
export function benchEvent(eventId: string, partnerId: string, i: number, now: string): NewOutboxEvent {
  return {
    eventId,
    partnerId,
    eventType: 'crew.status.changed',
    crewUniqueId: `crew_${i % BENCH_CREW}`,
    at: now,
    body: benchBody(eventId, partnerId, i, now),
    payloadScope: null,
    // i is unique per partner wherever the benches call this.
    sequence: i + 1,
    subject: `status:crew_${i % BENCH_CREW}`,
  };
}
