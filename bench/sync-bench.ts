// `svc sync` diff stage at scale: a first (full) run, an unchanged rerun, 10,000 mixed changes and
// the clock moved 30 days, each in a fresh process.
// Run: npm run bench:sync (BENCH_SYNC_CREW to scale down for a quick look; BENCH_SYNC_DB names the
// database / .bench file, default svc_bench_sync).
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { EVENT_TYPES } from '../src/domain/vocabulary.ts';
import { listPartners } from '../src/store/repositories/partners-repo.ts';
import { insertEndpoint } from '../src/store/repositories/webhook-endpoints-repo.ts';
import { runJsonChild } from './support/child.ts';
import type { DiffPhase } from './support/diff-phase.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { freshStore, postgresAvailable, seed } from './support/setup.ts';

const CREW = Number(process.env.BENCH_SYNC_CREW ?? 100_000);
const DB_NAME = process.env.BENCH_SYNC_DB ?? 'svc_bench_sync';
const DOCS = 10;
const PARTNERS = 20;
const CHANGES = Math.min(10_000, Math.floor(CREW / 10));
const NOW = '2026-11-22T10:00:00.000Z';
const LATER = '2026-12-22T10:00:00.000Z';

type Row = Array<string | number>;

/** CHANGES writes by plain SQL on distinct crew: a third status changes, a third corrected expiry dates, a third withdrawn consents. */
async function mixedChanges(db: Awaited<ReturnType<typeof seed>>['db']): Promise<void> {
  const step = Math.floor(CREW / CHANGES);
  const ids = Array.from({ length: CHANGES }, (_, i) => `gen_crew_${String(i * step).padStart(7, '0')}`);
  const third = Math.floor(CHANGES / 3);
  for (let i = 0; i < CHANGES; i += 1000) {
    const batch = ids.slice(i, Math.min(i + 1000, CHANGES)).map((id, k) => ({ id, n: i + k }));
    const status = batch.filter((b) => b.n < third).map((b) => b.id);
    const docs = batch.filter((b) => b.n >= third && b.n < 2 * third).map((b) => `${b.id}_d00`);
    const consents = batch.filter((b) => b.n >= 2 * third).map((b) => b.id);
    if (status.length)
      await db.updateTable('crew').set({ background_check_status: 'review' }).where('crew_unique_id', 'in', status).execute();
    if (docs.length)
      await db
        .updateTable('documents')
        .set({ expiry_date: sql<string>`'2031-01-01'` })
        .where('document_id', 'in', docs)
        .execute();
    if (consents.length) await db.deleteFrom('consents').where('crew_unique_id', 'in', consents).where('category', '=', 'status').execute();
  }
}

async function runDialect(dialect: 'sqlite' | 'postgres'): Promise<Row[]> {
  const { url } = await freshStore(dialect, DB_NAME);
  process.stderr.write(`${dialect}: seeding ${CREW} crew, ${CREW * DOCS} documents, ${PARTNERS} partners\n`);
  const store = await seed(url, { crew: CREW, vessels: 1000, partners: PARTNERS, docsPerCrew: DOCS, seed: 2 }, new Date(NOW));
  for (const p of await listPartners(store.db)) {
    await insertEndpoint(store.db, {
      endpointId: `whe_${p.partnerId}`,
      partnerId: p.partnerId,
      url: 'https://receiver.invalid/hook',
      subscribedEvents: [...EVENT_TYPES],
      secret: 'whsec_bench',
      status: 'active',
      createdAt: NOW,
      updatedAt: NOW,
    });
  }
  const rows: Row[] = [];
  let baselineMs = 0;
  const phase = async (name: string, at: string) => {
    const load = loadavg()[0]!.toFixed(1);
    const r = await runJsonChild<DiffPhase>('bench/support/diff-phase.ts', [url, at]);
    if (rows.length === 0) baselineMs = r.ms;
    const share = `${((100 * r.ms) / baselineMs).toFixed(1)} %`;
    process.stderr.write(
      `  ${name}: ${(r.ms / 1000).toFixed(2)} s (${share} of the first run), cpu ${(r.cpuMs / 1000).toFixed(1)} s, ${r.pairs} pairs, ${r.events} events, peak RSS ${r.maxRssMb.toFixed(0)} MB, load ${load}\n`,
    );
    rows.push([
      dialect,
      name,
      r.pairs,
      (r.ms / 1000).toFixed(2),
      share,
      (r.cpuMs / 1000).toFixed(1),
      r.events,
      r.maxRssMb.toFixed(0),
      load,
    ]);
  };
  await phase('first run (full, baseline)', NOW);
  await phase('unchanged rerun', NOW);
  await mixedChanges(store.db);
  await phase(`${CHANGES.toLocaleString('en')} mixed changes`, NOW);
  await phase('clock +30 days', LATER);
  await store.close();
  return rows;
}

const rows = await runDialect('sqlite');
if (await postgresAvailable()) rows.push(...(await runDialect('postgres')));
else process.stderr.write('Postgres does not answer: its half is skipped\n');

const body = `Command: \`npm run bench:sync\`. Machine: ${machineLine()}. Data: \`svc fixtures generate --crew ${CREW} --vessels 1000
--partners ${PARTNERS} --docs-per-crew ${DOCS}\` with an active endpoint for every partner. Each phase is the diff stage of
\`svc sync\` (captured changes → pairs → diff → outbox, one transaction per page) in a fresh process. "pairs diffed" counts
every (partner, crew member) pair the run compared; "% of first run" is against the first run of the same store in the same
invocation; "cpu s" is the diff process's own CPU time (user + system; Postgres's work is not in it). The changes, by plain SQL on distinct crew members: ${Math.floor(CHANGES / 3)} background-check status changes,
${Math.floor(CHANGES / 3)} corrected document expiry dates, ${CHANGES - 2 * Math.floor(CHANGES / 3)} withdrawn status consents (every partner).
"load" is the 1-minute load average when the phase started (the machine is shared).

${table(['store', 'run', 'pairs diffed', 'wall s', '% of first run', 'cpu s', 'events written', 'peak RSS MB', 'load'], rows)}`;
writeSection('Sync at scale', body);
console.log(body);
