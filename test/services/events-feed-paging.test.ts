import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import fc from 'fast-check';
import { EVENT_ACCESS } from '../../src/domain/event-access.ts';
import type { Partner } from '../../src/domain/partner.ts';
import type { Scope } from '../../src/domain/scopes.ts';
import { CONSENT_CATEGORIES, EVENT_TYPES } from '../../src/domain/vocabulary.ts';
import { decodeEventsCursor, listEventsPage, type FeedFilters } from '../../src/services/events/feed.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import type { PartnerContext } from '../../src/services/visibility/partner-context.ts';
import { findPartner } from '../../src/store/repositories/partners-repo.ts';
import { replaceConsents, upsertAssignments } from '../../src/store/repositories/reference-data-repo.ts';
import { miniFixture, writeFixture } from '../support/mini-fixture.ts';
import { describeEachStore } from '../support/stores.ts';
import { insertOutboxRows } from '../support/sync-world.ts';

const CREW = ['crew_1', 'crew_2'];
const TIMES = ['2026-11-20T10:00:00.000Z', '2026-11-21T10:00:00.000Z', '2026-11-22T09:00:00.000Z'];
const SINCE = '2026-11-01T00:00:00.000Z';
const KEY = Buffer.alloc(32, 7);
const EVENT_SCOPES = [...new Set(Object.values(EVENT_ACCESS).map((a) => a.scope)), 'crew:medical:read'] as Scope[];

const eventArb = fc.record({
  type: fc.constantFrom(...EVENT_TYPES),
  crew: fc.constantFrom(...CREW),
  time: fc.nat({ max: TIMES.length - 1 }),
  medical: fc.boolean(),
  state: fc.constantFrom(['pending', 0], ['pending', 3], ['delivered', 1], ['dead', 8]),
});
const caseArb = fc.record({
  events: fc.array(eventArb, { maxLength: 24 }),
  scopes: fc.subarray(EVENT_SCOPES),
  consents: fc.tuple(fc.subarray([...CONSENT_CATEGORIES]), fc.subarray([...CONSENT_CATEGORIES])),
  onFleet: fc.tuple(fc.boolean(), fc.boolean()),
  limit: fc.integer({ min: 1, max: 7 }),
  type: fc.option(fc.constantFrom(...EVENT_TYPES), { nil: undefined }),
  crew: fc.option(fc.constantFrom(...CREW), { nil: undefined }),
});

describeEachStore('the events feed pages exactly what the obvious filter lists', ({ store }) => {
  let partner: Partner;
  before(async () => {
    await loadFixtures(store().db, [writeFixture(miniFixture())], () => new Date(TIMES[2]!));
    partner = (await findPartner(store().db, 'ptn_a'))!;
  });

  it('keyset pages in sequence order over random events, fleet membership, scopes, consents and filters (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const db = store().db;
        await db.deleteFrom('outbox_events').execute();
        // Sequence numbers in an order unrelated to creation times and ids: the feed follows the numbers.
        const rows = c.events.map((e, i) => ({ ...e, id: `evt_${i}`, sequence: ((i * 7919) % 1000) + 1 }));
        await insertOutboxRows(
          db,
          rows.map((e) => ({
            event_id: e.id,
            partner_id: 'ptn_a',
            event_type: e.type,
            crew_unique_id: e.crew,
            occurred_at: TIMES[e.time]!,
            body: JSON.stringify({
              event_id: e.id,
              event_type: e.type,
              data: { crew_unique_id: e.crew, classification: { document_class: e.medical ? 'medical' : 'training' } },
            }),
            status: e.state[0] as 'pending',
            attempts: e.state[1],
            next_attempt_at: TIMES[e.time]!,
            locked_by: null,
            locked_until: null,
            created_at: TIMES[e.time]!,
            delivered_at: null,
            sequence: e.sequence,
            subject: `status:${e.crew}`,
          })),
        );
        for (const [i, crew] of CREW.entries()) {
          await replaceConsents(db, crew, 'ptn_a', c.consents[i]!);
          // A signed-off crew member has left the fleet: the feed no longer lists their events.
          await db.deleteFrom('assignments').where('crew_unique_id', '=', crew).execute();
          await upsertAssignments(db, [
            {
              assignment_id: `asg_paging_${crew}`,
              crew_unique_id: crew,
              vessel_id: 'ves_a',
              role: 'master',
              position_name: null,
              status: c.onFleet[i] ? 'active' : 'signed_off',
              as_of: TIMES[0]!,
            },
          ]);
        }
        const scopes = new Set(c.scopes);
        const expected = rows
          .filter((e) => (c.type === undefined || e.type === c.type) && (c.crew === undefined || e.crew === c.crew))
          .filter((e) => c.onFleet[CREW.indexOf(e.crew)])
          .filter((e) => scopes.has(EVENT_ACCESS[e.type].scope) && c.consents[CREW.indexOf(e.crew)]!.includes(EVENT_ACCESS[e.type].consent))
          .filter((e) => !(e.type.startsWith('crew.document') && e.medical) || scopes.has('crew:medical:read'))
          .sort((a, b) => a.sequence - b.sequence)
          .map((e) => [e.id, e.state[0] === 'pending' && e.state[1] > 0 ? 'retrying' : e.state[0], e.sequence]);

        const ctx: PartnerContext = { partner, mode: 'live', keyId: 'key_test', scopes };
        const filters: FeedFilters = { ...(c.type ? { type: c.type } : {}), ...(c.crew ? { crewUniqueId: c.crew } : {}) };
        const seen: unknown[] = [];
        let afterSequence = 0;
        for (let pages = 0; ; pages++) {
          assert.ok(pages <= rows.length + 1, 'paging ends');
          const page = await listEventsPage(db, ctx, KEY, { filters, afterSequence, limit: c.limit, since: SINCE });
          assert.ok(page.items.length <= c.limit);
          seen.push(...page.items.map((i) => [i.event.event_id, i.delivery_status, i.sequence]));
          if (!page.next_cursor) break;
          const cursor = decodeEventsCursor(KEY, page.next_cursor, ctx)!;
          assert.deepEqual(cursor.filters, filters, 'the cursor carries the filters');
          assert.ok('sequence' in cursor.after);
          afterSequence = cursor.after.sequence;
        }
        assert.deepEqual(seen, expected);
      }),
      { numRuns: 40 },
    );
  });
});
