// The reads a cold partner call makes about one crew member (the profile's `crewOnFleet`, the
// compliance check's `crewAccessOnFleet`, src/store/repositories/crew-on-fleet-repo.ts), against the same
// reads built with Kysely's query builder, as they were before they were written as SQL (the
// reference, below); and the check's `crewCheckOnFleet`, its documents in the same statement,
// against the fleet-and-consent read and `crewEvaluationDocuments` apart: the client process's CPU time per read (Kysely, the driver, and SQLite itself,
// which runs in this process), the two ways in alternating rounds, each round a different crew
// member per read, sequentially. Runs on the data set of `npm run bench:api` (BENCH_API_DB,
// BENCH_CREW), which must exist: run that bench first with BENCH_API_REUSE=1.
// Run: npx tsx bench/cold-reads.ts (COLD_ROUNDS, COLD_CALLS, BENCH_API_STORES to change them; a run of both
// stores writes bench/results/cold-reads-about-one-crew-member.md)
import { loadavg } from 'node:os';
import { sql, type ExpressionBuilder } from 'kysely';
import type { FleetRef } from '../src/domain/partner.ts';
import { CONSENT_CATEGORIES, ON_FLEET_STATUSES } from '../src/domain/vocabulary.ts';
import { openStore } from '../src/store/connect.ts';
import type { Database, Db } from '../src/store/database.ts';
import { fleetVesselIds } from '../src/store/repositories/fleet-repo.ts';
import { crewAccessOnFleet, crewCheckOnFleet, crewOnFleet } from '../src/store/repositories/crew-on-fleet-repo.ts';
import { crewEvaluationDocuments } from '../src/store/repositories/documents-repo.ts';
import { machineLine, table, writeSection } from './support/report.ts';
import { postgresAvailable, storeUrl } from './support/setup.ts';

const ROUNDS = Number(process.env.COLD_ROUNDS ?? 6);
const CALLS = Number(process.env.COLD_CALLS ?? 2000);
const DB_NAME = process.env.BENCH_API_DB ?? 'svc_bench_api';
const STORES = (process.env.BENCH_API_STORES ?? 'sqlite,postgres').split(',').map((s) => s.trim());
const PARTNER = 'gen_ptn_000';
const FLEET: FleetRef = { kind: 'employer', employerId: 'gen_emp_000', isTest: false };

/** The reference: the on-fleet assignments query and one EXISTS per consent category, built. */
function builtAssignments(db: Db, crewUniqueId: string) {
  return db
    .selectFrom('assignments')
    .innerJoin('vessels', 'vessels.vessel_id', 'assignments.vessel_id')
    .selectAll('vessels')
    .select(['assignments.assignment_id', 'assignments.crew_unique_id', 'assignments.role', 'assignments.position_name'])
    .select(['assignments.status', 'assignments.as_of'])
    .where('assignments.crew_unique_id', '=', crewUniqueId)
    .where('assignments.vessel_id', 'in', fleetVesselIds(db, FLEET))
    .where('assignments.status', 'in', ON_FLEET_STATUSES)
    .orderBy('assignments.as_of', 'desc')
    .orderBy('assignments.vessel_id');
}

function builtFlags(eb: ExpressionBuilder<Database, keyof Database>, crewUniqueId: string) {
  return CONSENT_CATEGORIES.map((category) =>
    eb
      .exists(
        eb
          .selectFrom('consents')
          .select('consents.category')
          .where('consents.partner_id', '=', PARTNER)
          .where('consents.crew_unique_id', '=', crewUniqueId)
          .where('consents.category', '=', category),
      )
      .as(`consent_${category}`),
  );
}

const READS = {
  profile: {
    sql: (db: Db, id: string) => crewOnFleet(db, FLEET, id, PARTNER),
    built: (db: Db, id: string) =>
      db
        .selectFrom('crew')
        .selectAll('crew')
        .select((eb) => [
          eb.exists(builtAssignments(db, id).clearSelect().clearOrderBy().select('assignments.assignment_id')).as('on_fleet'),
          ...builtFlags(eb, id),
        ])
        .where('crew.crew_unique_id', '=', id)
        .executeTakeFirst(),
  },
  'compliance check, fleet and consents': {
    sql: (db: Db, id: string) => crewAccessOnFleet(db, FLEET, id, PARTNER),
    built: (db: Db, id: string) =>
      builtAssignments(db, id)
        .select((eb) => builtFlags(eb, id))
        .execute(),
  },
  // The reference here is not a built read: the same two reads apart, as the check made them before.
  'compliance check, with its documents (reference: two statements)': {
    sql: (db: Db, id: string) => crewCheckOnFleet(db, FLEET, id, PARTNER),
    built: async (db: Db, id: string) => {
      if ((await crewAccessOnFleet(db, FLEET, id, PARTNER)).assignments.length > 0) await crewEvaluationDocuments(db, id);
    },
  },
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function runStore(dialect: 'sqlite' | 'postgres'): Promise<string[][]> {
  const store = await openStore(storeUrl(dialect, DB_NAME), { create: false });
  const rows: string[][] = [];
  try {
    const crew = (
      await sql<{ crew_unique_id: string }>`select crew_unique_id from crew order by crew_unique_id limit ${CALLS * 2}`.execute(store.db)
    ).rows.map((r) => r.crew_unique_id);
    if (crew.length < CALLS * 2) throw new Error(`${dialect}: ${DB_NAME} holds ${crew.length} crew; run npm run bench:api first`);
    for (const [name, read] of Object.entries(READS)) {
      const cpu: Record<'sql' | 'built', number[]> = { sql: [], built: [] };
      for (let round = 0; round <= ROUNDS; round++) {
        // Each way reads crew the other did not read in this round, the halves swapped every
        // round so both read the same crew over two; round 0 warms both up.
        const [first, second] = round % 2 === 0 ? [crew.slice(0, CALLS), crew.slice(CALLS)] : [crew.slice(CALLS), crew.slice(0, CALLS)];
        for (const [way, ordered] of [
          ['built', first],
          ['sql', second],
        ] as const) {
          const before = process.cpuUsage();
          for (const id of ordered) await read[way](store.db, id);
          const used = process.cpuUsage(before);
          if (round > 0) cpu[way].push((used.user + used.system) / CALLS);
        }
      }
      const ratios = cpu.sql.map((s, i) => s / cpu.built[i]!);
      const line = [
        dialect,
        name,
        median(cpu.built).toFixed(0),
        median(cpu.sql).toFixed(0),
        `${(100 * median(ratios)).toFixed(0)}% (${(100 * Math.min(...ratios)).toFixed(0)}–${(100 * Math.max(...ratios)).toFixed(0)}%)`,
      ];
      process.stderr.write(`  ${line.join('  ')}\n`);
      rows.push(line);
    }
  } finally {
    await store.close();
  }
  return rows;
}

const loadAtStart = loadavg()[0]!.toFixed(1);
const rows: string[][] = [];
for (const dialect of ['sqlite', 'postgres'] as const) {
  if (!STORES.includes(dialect) || (dialect === 'postgres' && !(await postgresAvailable()))) continue;
  rows.push(...(await runStore(dialect)));
}
const body = `Command: \`BENCH_API_DB=${DB_NAME} npx tsx bench/cold-reads.ts\` (${ROUNDS} rounds of ${CALLS} reads each way, in turns,
each read about a different crew member, sequential; CPU time of this process per read, medians, and the ratio as the median
of the rounds' ratios with their range; Postgres's own CPU is not counted). "Reference" is the read built with Kysely's builder,
except for the check with its documents, where it is the two reads apart. Machine: ${machineLine()}. Load (1-minute load average): ${loadAtStart} at the start,
${loadavg()[0]!.toFixed(1)} at the end.

${table(['store', 'read of a cold call', 'CPU µs per read, reference', 'CPU µs per read, now', 'now ÷ reference (range)'], rows)}`;
if (STORES.includes('sqlite') && STORES.includes('postgres')) writeSection('Cold reads about one crew member', body);
console.log(body);
