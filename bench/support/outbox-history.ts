import { sql } from 'kysely';
import type { Db } from '../../src/store/database.ts';
import { dialectOf } from '../../src/store/dialect-of.ts';

/** A body of the size the diff writes (about 300 bytes), the same for every row of history. */
const BODY = JSON.stringify({
  schema_version: 1,
  event_type: 'crew.status.changed',
  occurred_at: '2026-10-01T00:00:00.000Z',
  data: { crew_unique_id: 'crew_0', verification_status: 'verified', background_check_status: 'clear', note: 'x'.repeat(120) },
});

/** Sequences of history rows start here, above any the benches give their due events. */
const HISTORY_SEQUENCE = 10_000_000;

/**
 * Fills the outbox with `count` finished events of `partners` (round robin), as weeks of delivery
 * leave it: one in 20 dead after 8 attempts, the rest delivered at their first, each with its
 * attempt stored, all created a second apart from 2026-10-01. In a few statements on the store
 * (no rows through Node), then ANALYZE.
 */
export async function fillOutboxHistory(db: Db, partners: readonly string[], count: number): Promise<void> {
  const partnerList = JSON.stringify(partners);
  const pg = dialectOf(db) === 'postgres';
  const at = pg
    ? sql`to_char(timestamp '2026-10-01' + n.i * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', '2026-10-01', '+' || n.i || ' seconds')`;
  const numbers = pg
    ? sql`generate_series(1, ${count}) as n(i)`
    : sql`(with recursive r(i) as (select 1 union all select i + 1 from r where i < ${count}) select i from r) as n`;
  const partner = pg
    ? sql`(cast(${partnerList} as jsonb) ->> (n.i % ${partners.length}))`
    : sql`json_extract(${partnerList}, '$[' || (n.i % ${partners.length}) || ']')`;
  await sql`
    insert into outbox_events (event_id, partner_id, event_type, crew_unique_id, occurred_at, body, status, attempts,
      next_attempt_at, locked_by, locked_until, created_at, delivered_at, sequence, subject)
    select 'evt_hist_' || cast(n.i as text), ${partner}, 'crew.status.changed', 'crew_0', ${at}, ${BODY},
      case when n.i % 20 = 0 then 'dead' else 'delivered' end, case when n.i % 20 = 0 then 8 else 1 end,
      ${at}, null, null, ${at}, case when n.i % 20 = 0 then null else ${at} end, ${HISTORY_SEQUENCE} + n.i, 'status:crew_0'
    from ${numbers}
  `.execute(db);
  await sql`
    insert into delivery_attempts (event_id, attempt_no, attempted_at, url, status_code, latency_ms, error, response_body, outcome)
    select event_id, attempts, next_attempt_at, 'http://127.0.0.1/hook', case when status = 'dead' then 500 else 200 end, 3, null, null,
      case when status = 'dead' then 'dead' else 'delivered' end
    from outbox_events where event_id like 'evt_hist_%'
  `.execute(db);
  await sql`analyze`.execute(db);
}
