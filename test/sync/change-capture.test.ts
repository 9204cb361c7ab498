import assert from 'node:assert/strict';
import { beforeEach, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { FIXTURE_SECTIONS, type FixtureSection } from '../../src/services/fixtures/schema.ts';
import { WRITE_ORDER, writeRecords } from '../../src/services/ingest/write-records.ts';
import { openStore } from '../../src/store/connect.ts';
import type { Db } from '../../src/store/database.ts';
import { migrateToLatest } from '../../src/store/migrator.ts';
import { runDiff } from '../../src/sync/diff/run-diff.ts';
import { migrateToJustBefore } from '../support/earlier-schema.ts';
import { writeFixture } from '../support/mini-fixture.ts';
import { openWriter } from '../support/open-writer.ts';
import { describeEachStore } from '../support/stores.ts';
import {
  addDays,
  baseFixture,
  diffDeps,
  documentRow,
  fullDiffEvents,
  incrementalRun,
  PARTNERS,
  seedWorld,
  START,
} from '../support/change-world.ts';

const now = () => new Date(START);

/** Fixture records written as the loader of a release before ingestion wrote them (the ingestion tables came later). */
async function writeAsEarlierRelease(db: Db, files: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  for (const entity of WRITE_ORDER) {
    const section = Object.keys(FIXTURE_SECTIONS).find((k) => FIXTURE_SECTIONS[k as FixtureSection] === entity)!;
    await writeRecords(
      db,
      entity,
      files.flatMap((f) => (f[section] as Array<Record<string, unknown>> | undefined) ?? []),
      START,
    );
  }
}

async function changes(db: Db) {
  return (
    await db.selectFrom('changes').select(['table_name', 'row_key', 'crew_unique_id', 'partner_id']).orderBy('tx').orderBy('seq').execute()
  ).map((r) => [r.table_name, r.row_key, r.crew_unique_id, r.partner_id]);
}

describeEachStore(
  'change capture records every write events depend on, whoever writes',
  ({ store }) => {
    beforeEach(() => seedWorld(store().db));

    it('plain SQL inserts, updates and deletes leave one change row each, naming the crew member and/or partner', async () => {
      const db = store().db;
      await db.deleteFrom('changes').execute();
      await db.updateTable('crew').set({ background_check_status: 'clear' }).where('crew_unique_id', '=', 'crew_1').execute();
      await db
        .insertInto('documents')
        .values(documentRow('doc_x', 'crew_2', 0, '2027-01-01', START))
        .execute();
      await db.updateTable('documents').set({ crew_unique_id: 'crew_3' }).where('document_id', '=', 'doc_x').execute();
      await db
        .deleteFrom('consents')
        .where('crew_unique_id', '=', 'crew_2')
        .where('partner_id', '=', 'ptn_basic')
        .where('category', '=', 'status')
        .execute();
      await db.updateTable('vessels').set({ flag_state: 'PA' }).where('vessel_id', '=', 'ves_a').execute();
      await db.deleteFrom('contract_vessels').where('partner_id', '=', 'ptn_ext').execute();
      await db.updateTable('partners').set({ tier: 'basic' }).where('partner_id', '=', 'ptn_mgmt').execute();
      await db.updateTable('partners').set({ rate_limit: 5 }).where('partner_id', '=', 'ptn_mgmt').execute();
      await db.updateTable('webhook_endpoints').set({ secret: 'whsec_rotated' }).where('partner_id', '=', 'ptn_mgmt').execute();
      await db.updateTable('webhook_endpoints').set({ status: 'disabled' }).where('partner_id', '=', 'ptn_basic').execute();
      await db.updateTable('assignments').set({ status: 'on_leave' }).where('crew_unique_id', '=', 'crew_4').execute();
      await db.updateTable('requirement_catalogue').set({ position: 99 }).where('requirement_key', '=', 'brm').execute();
      const rows = await changes(db);
      const sorted = (xs: unknown[][]) => xs.map((x) => JSON.stringify(x)).sort();
      assert.deepEqual(
        sorted(rows),
        sorted([
          ['crew', 'crew_1', 'crew_1', null],
          ['documents', 'doc_x', 'crew_2', null],
          ['documents', 'doc_x', 'crew_3', null],
          ['documents', 'doc_x', 'crew_2', null],
          ['consents', 'crew_2|ptn_basic|status', 'crew_2', 'ptn_basic'],
          ['vessels', 'ves_a', null, null],
          ['contract_vessels', 'ptn_ext|ves_x', null, 'ptn_ext'],
          ['partners', 'ptn_mgmt', null, 'ptn_mgmt'],
          ['webhook_endpoints', 'whe_ptn_basic', null, 'ptn_basic'],
          ['assignments', `asg_crew_4_ves_a`, 'crew_4', null],
          ['requirement_catalogue', 'brm', null, null],
        ]),
        'a rate limit or a rotated secret changes no event: not captured',
      );
    });

    it('the fixture loader records the rows it changes; reloading the same catalogue records nothing', async () => {
      const db = store().db;
      await db.updateTable('requirement_catalogue').set({ definition: '{"key":"brm"}' }).where('requirement_key', '=', 'brm').execute();
      await db.deleteFrom('changes').execute();
      await loadFixtures(db, ['data/requirements.json'], now);
      assert.deepEqual(await changes(db), [['requirement_catalogue', 'brm', null, null]], 'the edited requirement is restored');
      await db.deleteFrom('changes').execute();
      await loadFixtures(db, ['data/requirements.json'], now);
      assert.deepEqual(await changes(db), []);
      await loadFixtures(db, [writeFixture({ crew: [{ crew_unique_id: 'crew_5', name: 'Renamed' }] })], now);
      assert.deepEqual(await changes(db), [['crew', 'crew_5', 'crew_5', null]]);
    });
  },
  { storePerTest: true },
);

describeEachStore(
  'incremental sync, targeted cases',
  ({ store, url, dialect }) => {
    // The world, and a first run that takes every partner's baseline: what a run sends is what the test changed.
    beforeEach(async () => {
      await seedWorld(store().db);
      await incrementalRun(store().db, now);
    });

    it('the watermark race: a change committed after a later one was read is still picked up', async () => {
      const db = store().db;
      const early = await openStore(url());
      const late = await openStore(url());
      try {
        // The early writer takes its change (a smaller seq, an older transaction) first and commits last.
        const earlyWriter = await openWriter(early.db, (trx) =>
          trx.updateTable('crew').set({ background_check_status: 'clear' }).where('crew_unique_id', '=', 'crew_2').execute(),
        );
        const lateWrite = () =>
          late.db.updateTable('crew').set({ background_check_status: 'review' }).where('crew_unique_id', '=', 'crew_4').execute();
        let during: Awaited<ReturnType<typeof incrementalRun>>;
        if (dialect === 'postgres') {
          // The later writer commits first; the run reads it while the early one is still open.
          await lateWrite();
          // A run that gives up waiting at once for the early writer (see the next test for the wait).
          during = await incrementalRun(db, now, { settleMs: 0 });
          await earlyWriter.commit();
        } else {
          // SQLite serializes writers (and the run writes too): let the run race the early commit and the later write.
          const running = incrementalRun(db, now);
          await earlyWriter.commit();
          await lateWrite();
          during = await running;
        }
        const afterwards = await incrementalRun(db, now);
        const statusOf = (events: string[]) =>
          events
            .map((e) => JSON.parse(e))
            .filter((e) => e[1] === 'crew.status.changed')
            .map((e) => `${e[0]}:${e[2]}`);
        const all = [...statusOf(during.events), ...statusOf(afterwards.events)].sort();
        // Every partner seeing crew_2's or crew_4's status gets exactly one event for each.
        const expected = (
          await db
            .selectFrom('sync_snapshots')
            .select(['partner_id', 'crew_unique_id', 'state'])
            .where('crew_unique_id', 'in', ['crew_2', 'crew_4'])
            .execute()
        )
          .filter((r) => JSON.parse(r.state).status)
          .map((r) => `${r.partner_id}:${r.crew_unique_id}`)
          .sort();
        assert.ok(expected.some((e) => e.endsWith('crew_2')) && expected.some((e) => e.endsWith('crew_4')));
        assert.deepEqual(all, expected);
        assert.deepEqual((await incrementalRun(db, now)).events, []);
      } finally {
        await early.close();
        await late.close();
      }
    });

    if (dialect === 'postgres') {
      it('a run waits for an older transaction still open: a change committed before the run is in it, not left for the next', async () => {
        const db = store().db;
        assert.deepEqual((await incrementalRun(db, now)).events, []);
        const early = await openStore(url());
        try {
          // A new status for crew_2 (in the older transaction) and for crew_4.
          const earlyWriter = await openWriter(early.db, (trx) =>
            trx.updateTable('crew').set({ background_check_status: 'review' }).where('crew_unique_id', '=', 'crew_2').execute(),
          );
          await db.updateTable('crew').set({ background_check_status: 'clear' }).where('crew_unique_id', '=', 'crew_4').execute();
          // Without the wait, the horizon would hold both changes back (the early writer's transaction is older).
          // A wide wait, so that a loaded machine cannot make the run give up before the commit below.
          const running = incrementalRun(db, now, { settleMs: 10_000 });
          await new Promise((resolve) => setTimeout(resolve, 200));
          await earlyWriter.commit();
          const during = await running;
          const crewWithStatus = new Set(
            during.events
              .map((e) => JSON.parse(e))
              .filter((e) => e[1] === 'crew.status.changed')
              .map((e) => e[2]),
          );
          assert.deepEqual([...crewWithStatus].sort(), ['crew_2', 'crew_4']);
          assert.deepEqual((await incrementalRun(db, now)).events, []);
        } finally {
          await early.close();
        }
      });
    }

    it('a crew member whose changes fall in several chunks is diffed against what the page before wrote', async () => {
      const db = store().db;
      const pages = { pageSize: 1, changeChunk: 1 };
      await incrementalRun(db, now, pages);
      const pair = ['ptn_basic', 'ptn_over'];
      const granted = await db
        .selectFrom('consents')
        .selectAll()
        .where('crew_unique_id', '=', 'crew_1')
        .where('partner_id', 'in', pair)
        .execute();
      await db.deleteFrom('consents').where('crew_unique_id', '=', 'crew_1').where('partner_id', 'in', pair).execute();
      await incrementalRun(db, now, pages);
      // One change row per consent: crew_1 comes back in every chunk, each a page read while the one before is written.
      await db.insertInto('consents').values(granted).execute();
      const expected = await fullDiffEvents(db, now);
      assert.ok(granted.length >= 4 && expected.length >= 2);
      assert.deepEqual((await incrementalRun(db, now, pages)).events, expected);
      assert.deepEqual((await incrementalRun(db, now, pages)).events, []);
    });

    it('a crash between page transactions loses nothing and a rerun invents nothing', async () => {
      const db = store().db;
      for (const crew of ['crew_1', 'crew_2', 'crew_3', 'crew_4', 'crew_5', 'crew_6']) {
        await db.updateTable('crew').set({ profile_updated_at: '2026-11-22T11:00:00.000Z' }).where('crew_unique_id', '=', crew).execute();
      }
      const expected = await fullDiffEvents(db, now);
      assert.ok(expected.length >= 6);
      let pages = 0;
      await assert.rejects(
        runDiff(db, diffDeps(now), () => {
          if (++pages === 2) throw new Error('killed');
        }),
        /killed/,
      );
      const written = (await db.selectFrom('outbox_events').select('body').where('occurred_at', '=', START).execute()).length;
      const rest = await incrementalRun(db, now);
      const total = (await db.selectFrom('outbox_events').select('body').where('occurred_at', '=', START).execute()).length;
      assert.ok(written > 0 && rest.events.length > 0, 'the crash came between pages that both wrote events');
      assert.equal(total - written, rest.events.length);
      assert.deepEqual(await fullDiffEvents(db, now), [], 'nothing left to send');
    });

    it('an endpoint disabled and enabled again: that partner is re-diffed in full and gets what changed meanwhile', async () => {
      const db = store().db;
      await db.updateTable('webhook_endpoints').set({ status: 'disabled' }).where('partner_id', '=', 'ptn_mgmt').execute();
      await db.updateTable('crew').set({ background_check_status: 'adverse' }).where('crew_unique_id', '=', 'crew_2').execute();
      const whileDisabled = await incrementalRun(db, now);
      assert.equal(whileDisabled.full, false);
      assert.ok(!whileDisabled.events.some((e) => e.startsWith('["ptn_mgmt"')));
      await db.updateTable('webhook_endpoints').set({ status: 'active' }).where('partner_id', '=', 'ptn_mgmt').execute();
      const expected = await fullDiffEvents(db, now);
      const back = await incrementalRun(db, now);
      assert.equal(back.full, true);
      assert.deepEqual(back.events, expected);
      assert.ok(back.events.some((e) => e.startsWith('["ptn_mgmt","crew.status.changed","crew_2"')));
    });

    it("a vessel moved to another employer: its crew join that employer's partners and leave the others, silently", async () => {
      const db = store().db;
      await db.updateTable('vessels').set({ employer_id: 'emp_x' }).where('vessel_id', '=', 'ves_x').execute();
      await db.updateTable('vessels').set({ employer_id: 'emp_x' }).where('vessel_id', '=', 'ves_b').execute();
      const expected = await fullDiffEvents(db, now);
      const run = await incrementalRun(db, now);
      assert.equal(run.full, false);
      assert.deepEqual(run.events, expected);
      const left = await db
        .selectFrom('sync_snapshots')
        .select('crew_unique_id')
        .where('partner_id', '=', 'ptn_mgmt')
        .where('crew_unique_id', 'in', ['crew_2', 'crew_5'])
        .execute();
      assert.deepEqual(left, [], 'crew on ves_b left the employer fleet');
      await db.updateTable('vessels').set({ employer_id: 'emp_a' }).where('vessel_id', '=', 'ves_b').execute();
      const back = await incrementalRun(db, now);
      assert.ok(
        back.events.some((e) => e.startsWith('["ptn_mgmt","crew.profile.updated","crew_2"')),
        'coming back is a join',
      );
    });

    it('a change row for a crew member who no longer exists forgets what was sent, sends nothing', async () => {
      const db = store().db;
      await db
        .insertInto('changes')
        .values({ table_name: 'crew', row_key: 'crew_ghost', crew_unique_id: 'crew_ghost', partner_id: null })
        .execute();
      assert.deepEqual((await incrementalRun(db, now)).events, []);
      await db.deleteFrom('crew').where('crew_unique_id', '=', 'crew_1').execute();
      const run = await incrementalRun(db, now);
      assert.deepEqual(run.events, []);
      assert.equal(run.full, false);
      const left = await db.selectFrom('sync_snapshots').select('partner_id').where('crew_unique_id', '=', 'crew_1').execute();
      assert.deepEqual(left, []);
    });

    it('a write committed while a run is under way, to a crew member the run already diffed, is sent by the next run', async () => {
      // It moves the clock and changes every diffed crew member's status.
      const db = store().db;
      await incrementalRun(db, now);
      const later = () => new Date(addDays(START, 400));
      assert.ok((await fullDiffEvents(db, later)).length > 0, 'the date alone changes payloads: the due pass has crew to diff');
      // Another writer commits right after a page of the run has read its crew: a trigger on the
      // snapshots the page writes changes those crew members' status in the page's own transaction.
      const write = `update crew set background_check_status = 'adverse' where crew_unique_id = NEW.crew_unique_id and background_check_status <> 'adverse'`;
      if (dialect === 'postgres') {
        await sql
          .raw(`create function test_mid_run_write() returns trigger language plpgsql as $$ begin ${write}; return null; end $$`)
          .execute(db);
        await sql
          .raw(
            'create trigger test_mid_run_write after insert or update on sync_snapshots for each row execute function test_mid_run_write()',
          )
          .execute(db);
      } else {
        for (const op of ['insert', 'update'])
          await sql.raw(`create trigger test_mid_run_write_${op} after ${op} on sync_snapshots begin ${write}; end`).execute(db);
      }
      try {
        await incrementalRun(db, later);
      } finally {
        if (dialect === 'postgres') await sql.raw('drop function test_mid_run_write cascade').execute(db);
        else for (const op of ['insert', 'update']) await sql.raw(`drop trigger test_mid_run_write_${op}`).execute(db);
      }
      const changed = await db.selectFrom('crew').select('crew_unique_id').where('background_check_status', '=', 'adverse').execute();
      assert.ok(changed.length > 0, 'the run wrote snapshots, and so the status of their crew changed meanwhile');
      const next = await incrementalRun(db, later);
      assert.ok(
        next.events.some((e) => JSON.parse(e)[1] === 'crew.status.changed'),
        'the next run sends the status changes',
      );
      assert.deepEqual(await fullDiffEvents(db, later), [], 'nothing left unsent');
    });
  },
  { storePerTest: true },
);

describeEachStore(
  'a store migrated while data existed',
  ({ store }) => {
    it('starts with a full run, then goes incremental', async () => {
      const db = store().db;
      await migrateToJustBefore(db, '0300-change-capture');
      await writeAsEarlierRelease(db, [JSON.parse(readFileSync('data/requirements.json', 'utf8')), baseFixture()]);
      // An earlier release had recorded every partner's baseline; no change was captured then.
      for (const p of PARTNERS)
        await db.insertInto('sync_state').values({ partner_id: p, baseline_at: START, last_run_at: START }).execute();
      await migrateToLatest(db);
      await seedWorld(db).catch(() => {});
      await db.updateTable('webhook_endpoints').set({ status: 'active' }).execute();
      await db.deleteFrom('changes').execute();
      const expected = await fullDiffEvents(db, now);
      const first = await incrementalRun(db, now);
      assert.equal(first.full, true);
      assert.deepEqual(first.events, expected);
      assert.ok(first.events.length > 0);
      const second = await incrementalRun(db, now);
      assert.deepEqual(second, { events: [], full: false });
      assert.equal((await sql<{ n: number }>`select count(*) as n from changes`.execute(db)).rows.length, 1);
    });
  },
  { migrate: false },
);
