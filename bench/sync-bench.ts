// `svc sync` diff stage at scale: baseline, unchanged rerun, and a run with 10,000 changes.
// Run: npm run bench:sync (BENCH_SYNC_CREW to scale down for a quick look).
import { sql } from 'kysely';
import { EVENT_TYPES } from '../src/domain/vocabulary.ts';
import { listPartners } from '../src/store/repositories/partners-repo.ts';
import { insertEndpoint } from '../src/store/repositories/webhook-endpoints-repo.ts';
import { runJsonChild } from './support/child.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { freshStore, postgresAvailable, seed } from './support/setup.ts';

const CREW = Number(process.env.BENCH_SYNC_CREW ?? 100_000);
const DOCS = 10;
const PARTNERS = 20;
const CHANGES = Math.min(10_000, Math.floor(CREW / 10));
const NOW = '2026-11-22T10:00:00.000Z';

async function runDialect(dialect: 'sqlite' | 'postgres'): Promise<Array<Array<string | number>>> {
  const { url } = await freshStore(dialect, 'svc_bench_sync');
  process.stderr.write(`${dialect}: seeding ${CREW} crew, ${CREW * DOCS} documents, ${PARTNERS} partners\n`);
  const store = await seed(url, { crew: CREW, vessels: 1000, partners: PARTNERS, docsPerCrew: DOCS, seed: 2 }, new Date(NOW));
  for (const p of await listPartners(store.db)) {
    await insertEndpoint(store.db, {
      endpointId: `whe_${p.partnerId}`, partnerId: p.partnerId, url: 'https://receiver.invalid/hook', subscribedEvents: [...EVENT_TYPES],
      secret: 'whsec_bench', status: 'active', createdAt: NOW, updatedAt: NOW,
    });
  }
  const rows: Array<Array<string | number>> = [];
  const phase = async (name: string) => {
    const r = await runJsonChild('bench/support/diff-phase.ts', [url, NOW]);
    process.stderr.write(`  ${name}: ${(r.ms / 1000).toFixed(1)} s, ${r.events} events, peak RSS ${r.maxRssMb.toFixed(0)} MB\n`);
    rows.push([dialect, name, r.pairs, (r.ms / 1000).toFixed(1), r.events, r.maxRssMb.toFixed(0)]);
  };
  await phase('baseline (first run)');
  await phase('unchanged rerun');
  // Half status changes, half corrected document dates, on distinct crew spread over the fleet.
  const step = Math.floor(CREW / CHANGES);
  const ids = Array.from({ length: CHANGES }, (_, i) => `gen_crew_${String(i * step).padStart(7, '0')}`);
  const half = CHANGES / 2;
  for (let i = 0; i < CHANGES; i += 1000) {
    const batch = ids.slice(i, Math.min(i + 1000, CHANGES));
    const status = batch.filter((_, k) => i + k < half);
    const docs = batch.filter((_, k) => i + k >= half).map((id) => `${id}_d00`);
    if (status.length) await store.db.updateTable('crew').set({ background_check_status: 'review' }).where('crew_unique_id', 'in', status).execute();
    if (docs.length) await store.db.updateTable('documents').set({ expiry_date: sql<string>`'2031-01-01'` }).where('document_id', 'in', docs).execute();
  }
  await store.close();
  await phase(`${CHANGES.toLocaleString('en')} changes`);
  return rows;
}

const rows = await runDialect('sqlite');
if (await postgresAvailable()) rows.push(...(await runDialect('postgres')));
else process.stderr.write('Postgres does not answer: its half is skipped\n');

const body = `Command: \`npm run bench:sync\`. Machine: ${machineLine()}. Data: \`svc fixtures generate --crew ${CREW} --vessels 1000
--partners ${PARTNERS} --docs-per-crew ${DOCS}\` with an active endpoint for every partner. Each phase is the diff stage of
\`svc sync\` (fleet diff → outbox, one transaction per page) in a fresh process; "crew × partner" counts every crew member once
per partner whose fleet holds them. The changes: ${CHANGES / 2} background-check status changes and ${CHANGES / 2} corrected
document expiry dates, on distinct crew members.

${table(['store', 'run', 'crew × partner', 'wall s', 'events written', 'peak RSS MB'], rows)}`;
writeSection('Sync at scale', body);
console.log(body);
