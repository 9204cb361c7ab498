import { once } from 'node:events';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { closeSync, constants, createWriteStream, openSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../../src/store/database.ts';
import { openStore } from '../../src/store/connect.ts';
import { cli } from './cli.ts';
import { createPostgresStoreUrl, createSqliteStoreUrl, type DialectLabel } from './stores.ts';
import { svcCommand } from './svc-build.ts';

/*
 * A feed of a few thousand changes for the ingestion fault tests (test/faults/ingest-*.test.ts), as
 * a platform would send it: crew with documents and assignments, patches some batches after their
 * upserts, lines sent twice, a few deletes (erasures, a withdrawn document), and documents sent
 * before their crew member (held, then applied once it arrives).
 */

const T0 = '2026-11-22T10:00:00Z';
const CREW = 320;
/** Crew members from this one on have their documents sent at the head of the feed, before them. */
const LATE_CREW = 300;
/** Patches come this many crew members after their upserts, so they fall in later batches. */
const LAG = 9;

const line = (change: object) => JSON.stringify(change);
const crewId = (i: number) => `crew_f${String(i).padStart(4, '0')}`;
const docId = (i: number, n: number) => `doc_f${String(i).padStart(4, '0')}_${n}`;

const crew = (i: number) =>
  line({
    entity: 'crew',
    op: 'upsert',
    id: crewId(i),
    version: 1,
    data: {
      name: `Crew ${i}`,
      rank: 'Able Seafarer',
      email: `crew${i}@example.com`,
      bio: `first bio of ${i}`,
      verification_status: 'verified',
    },
  });
const document = (i: number, n: number) =>
  line({
    entity: 'document',
    op: 'upsert',
    id: docId(i, n),
    version: 1,
    data: {
      crew_unique_id: crewId(i),
      type: 'certificate',
      category: 'stcw',
      title: `Certificate ${n} of ${i}`,
      verification_status: 'pending',
      issue_date: '2025-01-01',
      expiry_date: `20${30 + (i % 5)}-01-01`,
      classification: { document_class: 'training', category_code: 'basic_safety' },
    },
  });
const assignment = (i: number) =>
  line({
    entity: 'assignment',
    op: 'upsert',
    id: `asg_f${i}`,
    version: 1,
    data: { crew_unique_id: crewId(i), vessel_id: `ves_f${i % 3}`, role: 'able_seafarer_deck', status: 'active', as_of: T0 },
  });
const later = (i: number): string[] => [
  line({ entity: 'crew', op: 'patch', id: crewId(i), version: 2, data: { bio: `second bio of ${i}`, rank: i % 2 ? null : 'Bosun' } }),
  line({ entity: 'document', op: 'patch', id: docId(i, 1), version: 2, data: { verification_status: 'verified' } }),
  ...(i % 10 === 0 ? [crew(i), document(i, 1)] : []),
  ...(i % 40 === 0 ? [line({ entity: 'crew', op: 'delete', id: crewId(i), version: 3 })] : []),
  ...(i % 40 === 7 ? [line({ entity: 'document', op: 'delete', id: docId(i, 2), version: 2 })] : []),
];

/** The feed's NDJSON lines (about 2,000 changes), in order. */
export function faultFeed(): string[] {
  const lines = [
    line({ entity: 'employer', op: 'upsert', id: 'emp_f', version: 1, data: { name: 'Fault Shipping' } }),
    ...[0, 1, 2].map((v) =>
      line({
        entity: 'vessel',
        op: 'upsert',
        id: `ves_f${v}`,
        version: 1,
        data: {
          employer_id: 'emp_f',
          vessel_name: `Fault ${v}`,
          imo: null,
          mmsi: null,
          flag_state: 'GB',
          vessel_type: 'bulk_carrier',
          gross_tonnage: 30000 + v,
          propulsion_kw: 9000,
        },
      }),
    ),
  ];
  for (let i = LATE_CREW; i < CREW; i++) lines.push(document(i, 1), document(i, 2));
  for (let i = 0; i < CREW + LAG; i++) {
    if (i < CREW) lines.push(crew(i), ...(i < LATE_CREW ? [document(i, 1), document(i, 2)] : []), assignment(i));
    if (i >= LAG) lines.push(...later(i - LAG));
  }
  return lines;
}

/** Columns the store fills from the clock when the change does not say: two runs differ in them. */
const CLOCK_COLUMNS = new Set(['profile_updated_at', 'updated_at', 'created_at', 'status_updated_at', 'processed_at']);

const TABLES = [
  ['employers', 'employer_id'],
  ['vessels', 'vessel_id'],
  ['partners', 'partner_id'],
  ['crew', 'crew_unique_id'],
  ['assignments', 'assignment_id'],
  ['consents', 'crew_unique_id'],
  ['documents', 'document_id'],
  ['files', 'file_id'],
  ['requirement_catalogue', 'requirement_key'],
  ['ingest_versions', 'entity_id'],
  ['ingest_held', 'entity_id'],
] as const;

/**
 * What ingestion left in a store, comparable across stores and runs: every row of the reference
 * tables and of ingest_versions and ingest_held (clock-filled columns left out, numbers as numbers),
 * and how many change-capture rows each row key has: the events the next sync sends are made from
 * those, so a change applied twice would show as one more.
 */
export async function ingestedState(db: Db): Promise<Record<string, unknown>> {
  const state: Record<string, unknown> = {};
  for (const [table, key] of TABLES) {
    const rows = await db
      .selectFrom(table as 'crew')
      .selectAll()
      .orderBy(key as 'crew_unique_id')
      .execute();
    state[table] = rows.map((row) =>
      Object.fromEntries(
        Object.entries(row)
          .filter(([column]) => !CLOCK_COLUMNS.has(column))
          .map(([column, value]) => [
            column,
            typeof value === 'bigint' || (typeof value === 'string' && /^\d+$/.test(value) && column === 'version') ? Number(value) : value,
          ]),
      ),
    );
  }
  const changes = await db
    .selectFrom('changes')
    .select(['table_name', 'row_key', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy(['table_name', 'row_key'])
    .orderBy('table_name')
    .orderBy('row_key')
    .execute();
  state.changes = changes.map((c) => `${c.table_name} ${c.row_key} ×${Number(c.n)}`);
  return state;
}

/** How many entities have a stored version: a count that grows as batches commit. */
export async function versionCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('ingest_versions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What one clean run of `svc ingest FILE …args` leaves in a fresh store of the dialect. */
export async function cleanRunState(dialect: DialectLabel, file: string, args: readonly string[]): Promise<Record<string, unknown>> {
  const fresh = dialect === 'sqlite' ? await createSqliteStoreUrl({ migrated: true }) : await createPostgresStoreUrl({ migrated: true });
  const store = await openStore(fresh.url);
  try {
    const run = await cli(['ingest', file, ...args], { SVC_DATABASE_URL: fresh.url });
    if (run.code !== 0) throw new Error(`the clean run exited ${run.code}: ${run.stderr}`);
    return await ingestedState(store.db);
  } finally {
    await store.close();
    await fresh.dispose();
  }
}

/**
 * `svc ingest PIPE …args` as a child reading a named pipe in `dir` that the caller writes into: the
 * run cannot reach the end of its input before the caller ends it, so a fault comes mid-run.
 */
export function ingestFromPipe(
  dir: string,
  databaseUrl: string,
  args: readonly string[],
): { child: ChildProcess; input: WriteStream; stderr: () => string; stop: () => Promise<void> } {
  const pipe = join(dir, 'pipe.ndjson');
  execFileSync('mkfifo', [pipe]);
  const svc = svcCommand();
  const child = spawn(svc.command, [...svc.args, 'ingest', pipe, ...args], {
    env: { ...process.env, ...svc.env, SVC_DATABASE_URL: databaseUrl, SVC_LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c) => (stderr += c));
  const input = createWriteStream(pipe);
  // A write after the child is gone fails with EPIPE: expected once the test has killed it.
  input.on('error', () => {});
  // A child that ended before it opened the pipe would leave the open above waiting for a reader forever.
  child.on('exit', () => {
    try {
      closeSync(openSync(pipe, constants.O_RDONLY | constants.O_NONBLOCK));
    } catch {
      // The pipe is gone already: nothing waits on it.
    }
  });
  /**
   * Ends what is left of the run, whatever the test did before failing: the child killed if still
   * running, the pipe closed. A child left reading a pipe the test holds open keeps the test file's
   * process alive, and the suite never ends.
   */
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    input.destroy();
  };
  return { child, input, stderr: () => stderr, stop };
}
