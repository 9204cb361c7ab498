import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { it } from 'node:test';
import type { KyselyPlugin } from 'kysely';
import { versionOf } from '../../src/services/data-version.ts';
import { replayDeadLetters } from '../../src/services/dead-letters.ts';
import { marksOf, type ChangeMarksRow } from '../../src/store/repositories/data-version-repo.ts';
import { listDeadLetters } from '../../src/store/repositories/dead-letters-repo.ts';
import { listDeliveryAttempts } from '../../src/store/repositories/delivery-repo.ts';
import { findOutboxEvent } from '../../src/store/repositories/outbox-repo.ts';
import { replaceConsents } from '../../src/store/repositories/reference-data-repo.ts';
import { deliverDue } from '../../src/sync/delivery/run-delivery.ts';
import { receiverWorld } from '../support/receiver-world.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedCrewOnFleet, seedEndpoint, seedEvent, SECRET, testClock, testDeps } from '../support/sync-world.ts';

const ALL = ['status', 'profile', 'documents', 'compliance'] as const;

describeEachStore('access is checked when an event is sent, not only when it was created', ({ store }) => {
  const world = receiverWorld(store);

  const setAssignment = (status: 'active' | 'signed_off') =>
    store().db.updateTable('assignments').set({ status }).where('crew_unique_id', '=', 'crew_1').execute();
  const setTier = (tier: 'management' | 'basic') =>
    store().db.updateTable('partners').set({ tier }).where('partner_id', '=', 'ptn_a').execute();
  const restore = async () => {
    await replaceConsents(store().db, 'crew_1', 'ptn_a', ALL);
    await setAssignment('active');
    await setTier('management');
  };

  /** Nine waiting events, one failed attempt each, then `change`, then a later run: none is sent. */
  async function waitThenChange(change: () => Promise<unknown>, reason: string): Promise<void> {
    const db = store().db;
    await seedEndpoint(db, 'ptn_a', world.rx.url);
    const ids = [];
    for (let i = 0; i < 9; i++) ids.push((await seedEvent(db, 'ptn_a')).eventId);
    const tc = testClock();
    world.reply = () => ({ status: 500 });
    const first = (await deliverDue(db, testDeps(tc), 'run_1')).totals;
    assert.equal(first.retrying + first.breakerOpen, 9, 'attempted and failed, or left by the open breaker');
    const sentBefore = world.rx.received.length;
    await change();
    world.reply = () => ({ status: 200 });
    tc.advance(6 * 60_000);
    const report = await deliverDue(db, testDeps(tc), 'run_2');
    assert.equal(world.rx.received.length, sentBefore, 'nothing reaches the receiver');
    assert.equal(report.totals.suppressed, 9);
    assert.equal(report.totals.delivered, 0);
    for (const id of ids) {
      const e = await findOutboxEvent(db, id);
      assert.deepEqual([e?.status, e?.suppressedReason, e?.lockedBy], ['suppressed', reason, null]);
    }
    assert.deepEqual(await listDeadLetters(db), [], 'a suppressed event is not dead-lettered');
    tc.advance(24 * 3600_000);
    await restore();
    assert.equal((await deliverDue(db, testDeps(tc), 'run_3')).due, 0, 'a suppressed event is final, even once access returns');
  }

  it('consent withdrawn while events wait: the next run suppresses them (consent)', async () => {
    try {
      await waitThenChange(() => replaceConsents(store().db, 'crew_1', 'ptn_a', []), 'consent');
    } finally {
      await restore();
    }
  });

  it('the crew member left the fleet: suppressed (fleet)', async () => {
    try {
      await waitThenChange(() => setAssignment('signed_off'), 'fleet');
    } finally {
      await restore();
    }
  });

  it("the partner's plan lost the scope: suppressed (scope)", async () => {
    try {
      await waitThenChange(() => setTier('basic'), 'scope');
    } finally {
      await restore();
    }
  });

  it('the endpoint no longer subscribes to the type: suppressed (subscription)', async () => {
    await waitThenChange(() => seedEndpointSubscribing(['crew.profile.updated']), 'subscription');
  });

  async function seedEndpointSubscribing(types: string[]): Promise<void> {
    await store()
      .db.updateTable('webhook_endpoints')
      .set({ subscribed_events: JSON.stringify(types) })
      .where('partner_id', '=', 'ptn_a')
      .execute();
  }

  it('an in-run retry checks again: consent withdrawn during the wait stops the second attempt', async () => {
    const db = store().db;
    try {
      await seedEndpoint(db, 'ptn_a', world.rx.url);
      const { eventId } = await seedEvent(db, 'ptn_a');
      world.reply = () => ({ status: 503 });
      const tc = testClock();
      const deps = testDeps(tc, {
        sleep: async (ms) => {
          tc.advance(ms);
          await replaceConsents(db, 'crew_1', 'ptn_a', []);
        },
      });
      await deliverDue(db, deps, 'run_1');
      assert.equal(world.rx.received.length, 1, 'the first attempt only');
      assert.deepEqual(
        deps.ended.map((e) => [e.outcome, e.attempts]),
        [['suppressed', 1]],
      );
      assert.equal((await findOutboxEvent(db, eventId))?.suppressedReason, 'consent');
    } finally {
      await restore();
    }
  });

  it('replay after consent was withdrawn skips the dead letters, says why, and sends nothing', async () => {
    const db = store().db;
    try {
      await seedEndpoint(db, 'ptn_a', world.rx.url);
      for (let i = 0; i < 9; i++) await seedEvent(db, 'ptn_a');
      world.reply = () => ({ status: 400 });
      const tc = testClock();
      assert.equal((await deliverDue(db, testDeps(tc), 'run_1')).totals.deadLettered, 9);
      await replaceConsents(db, 'crew_1', 'ptn_a', []);
      const result = await replayDeadLetters(db, {}, tc.clock);
      assert.equal(result.replayed.length, 0);
      assert.deepEqual(
        result.skipped.map((s) => s.reason),
        Array(9).fill('consent'),
      );
      await restore();
      world.reply = () => ({ status: 200 });
      tc.advance(60_000);
      const again = await replayDeadLetters(db, {}, tc.clock);
      assert.deepEqual([again.replayed.length, again.skipped.length], [0, 9], 'a suppressed event cannot be replayed');
      assert.equal((await deliverDue(db, testDeps(tc), 'run_2')).due, 0);
      assert.equal(world.rx.received.length, 9, 'only the nine first attempts were ever sent');
    } finally {
      await restore();
    }
  });

  it('while nothing changes, one access query per claimed batch serves every first attempt', async () => {
    const db = store().db;
    await seedCrewOnFleet(db, 'crew_2');
    await replaceConsents(db, 'crew_2', 'ptn_a', ALL);
    await seedEndpoint(db, 'ptn_a', world.rx.url, SECRET);
    for (let i = 0; i < 20; i++) await seedEvent(db, 'ptn_a', { crewUniqueId: i % 2 ? 'crew_1' : 'crew_2' });
    let consentQueries = 0;
    // On Postgres the version is withheld while a transaction older than the newest change may be
    // in flight, and its horizon counts every database of the server: a test elsewhere may hold one.
    let versionsWithheld = 0;
    const counter: KyselyPlugin = {
      transformQuery(args) {
        if (args.node.kind === 'SelectQueryNode' && JSON.stringify(args.node).includes('"consents"')) consentQueries += 1;
        return args.node;
      },
      async transformResult(args) {
        const row = args.result.rows[0];
        if (row && 'horizon' in row && 'max_tx' in row) {
          const marks = row as ChangeMarksRow;
          if (versionOf(marksOf(marks, marks.horizon !== null)) === null) versionsWithheld += 1;
        }
        return args.result;
      },
    };
    const report = await deliverDue(db.withPlugin(counter), testDeps(testClock()), 'run_1');
    assert.equal(report.totals.delivered, 20);
    if (versionsWithheld === 0) assert.equal(consentQueries, 1, 'one claimed batch (20 events under the batch size), one access query');
    else assert.ok(consentQueries > 1, `a withheld version (${versionsWithheld} reads) reuses nothing: ${consentQueries} access queries`);
    const attempts = await listDeliveryAttempts(db, {});
    assert.equal(attempts.length, 20);
  });

  /*
   * The outside probe's case (issue 29): 17 events about one crew member, a receiver holding the
   * first two (two deliveries in flight per endpoint), and a change committed while it holds them.
   * The two already started are answered; no later attempt of the run may ignore the change.
   */
  const MOVED = 'http://127.0.0.1:9/moved';
  const NEW_SECRET = `${SECRET}-new`;
  const changes: Array<{ name: string; change: () => Promise<unknown>; outcome: string; reason?: string }> = [
    {
      name: 'consent withdrawn',
      change: () => replaceConsents(store().db, 'crew_1', 'ptn_a', []),
      outcome: 'suppressed',
      reason: 'consent',
    },
    { name: 'crew signed off', change: () => setAssignment('signed_off'), outcome: 'suppressed', reason: 'fleet' },
    { name: 'partner scope reduced', change: () => setTier('basic'), outcome: 'suppressed', reason: 'scope' },
    {
      name: 'event type unsubscribed',
      change: () => seedEndpointSubscribing(['crew.profile.updated']),
      outcome: 'suppressed',
      reason: 'subscription',
    },
    {
      name: 'endpoint disabled',
      change: () => store().db.updateTable('webhook_endpoints').set({ status: 'disabled' }).where('partner_id', '=', 'ptn_a').execute(),
      outcome: 'disabled',
    },
    {
      name: 'endpoint moved to a new URL and secret',
      change: () =>
        store().db.updateTable('webhook_endpoints').set({ url: MOVED, secret: NEW_SECRET }).where('partner_id', '=', 'ptn_a').execute(),
      outcome: 'delivered',
    },
  ];
  for (const c of changes) {
    it(`${c.name} while a slow receiver holds two events: none of the other 15 is sent as before`, async () => {
      const db = store().db;
      try {
        await seedEndpoint(db, 'ptn_a', 'http://127.0.0.1:9/hook', SECRET);
        for (let i = 0; i < 17; i++) await seedEvent(db, 'ptn_a');
        const sent: Array<{ url: string; secretUsed: string | null; afterChange: boolean }> = [];
        let changed = false;
        let release!: () => void;
        const bothHeld = new Promise<void>((resolve) => (release = resolve));
        const fetch = (async (url: string, init: RequestInit) => {
          const h = init.headers as Record<string, string>;
          const sign = (secret: string) =>
            `v1=${createHmac('sha256', secret)
              .update(`${h['X-Service-Timestamp']}.${init.body as string}`)
              .digest('hex')}`;
          const secretUsed = [SECRET, NEW_SECRET].find((s) => sign(s) === h['X-Service-Signature']) ?? null;
          sent.push({ url, secretUsed, afterChange: changed });
          if (sent.length === 2) {
            await c.change();
            changed = true;
            release();
          }
          await bothHeld;
          return new Response('ok', { status: 200 });
        }) as typeof globalThis.fetch;
        const deps = testDeps(testClock(), { fetch });
        await deliverDue(db, deps, 'run_1');
        assert.deepEqual(
          sent.slice(0, 2).map((x) => x.afterChange),
          [false, false],
          'two in flight when the change committed',
        );
        const later = sent.filter((x) => x.afterChange);
        const outcomes = deps.ended.map((e) => e.outcome);
        assert.equal(outcomes.filter((o) => o === 'delivered').length, c.outcome === 'delivered' ? 17 : 2);
        if (c.outcome === 'delivered') {
          assert.equal(later.length, 15);
          assert.deepEqual(
            new Set(later.map((x) => `${x.url} ${x.secretUsed}`)),
            new Set([`${MOVED} ${NEW_SECRET}`]),
            'all 15 to the new URL, with the new secret',
          );
        } else {
          assert.equal(later.length, 0, 'nothing sent after the change committed');
          assert.equal(outcomes.filter((o) => o === c.outcome).length, 15);
          for (const e of deps.ended.filter((x) => x.outcome === 'suppressed')) {
            assert.equal((await findOutboxEvent(db, e.eventId))?.suppressedReason, c.reason);
          }
        }
      } finally {
        await restore();
      }
    });
  }
});
