import { sql } from 'kysely';
import type { Db } from '../database.ts';
import { dialectOf } from '../dialect-of.ts';
import { REFERENCE_TABLES } from './reference-data-repo.ts';

/**
 * Refreshes the planner's statistics. After a bulk load the planners otherwise guess: Postgres
 * picked a 60 ms plan for the fleet page on 10,000 fresh crew rows instead of a 3 ms one.
 */
export async function analyzeStore(db: Db): Promise<void> {
  await sql`analyze`.execute(db);
}

/**
 * The tables whose statistics an ingest batch's plans use: the ones it writes and reads
 * (REFERENCE_TABLES, its own bookkeeping), the ones its foreign-key checks look up and its deletes
 * cascade to (src/store/migrations/0001-initial.ts). Not the change log its triggers append to
 * (the largest of the rest), nor outbox, audit, sync or auth tables.
 */
export const INGEST_TABLES = [
  ...REFERENCE_TABLES,
  'file_chunks',
  'api_keys',
  'webhook_endpoints',
  'ingest_versions',
  'ingest_held',
] as const;

type IngestTable = (typeof INGEST_TABLES)[number];

/**
 * The columns the batch's plans look rows up by, for the two large tables whose other columns
 * (text, the stored records) are most of an ANALYZE's cost: on Postgres only these are analyzed
 * (bench/ingest-analyze.ts). SQLite's ANALYZE reads the indexes only, by table.
 */
const LOOKUP_COLUMNS: Partial<Record<IngestTable, readonly string[]>> = {
  documents: ['document_id', 'crew_unique_id', 'file_id'],
  ingest_versions: ['entity', 'entity_id'],
};

/** Refreshes the statistics of INGEST_TABLES (LOOKUP_COLUMNS of the large two on Postgres). */
export async function analyzeIngestTables(db: Db): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  for (const t of INGEST_TABLES) {
    const columns = postgres ? LOOKUP_COLUMNS[t] : undefined;
    if (columns) await sql`analyze ${sql.table(t)} (${sql.join(columns.map((c) => sql.ref(c)))})`.execute(db);
    else await sql`analyze ${sql.table(t)}`.execute(db);
  }
}

/** The same for a few tables a job has just rewritten (sync's snapshots and change log after a full run). */
export async function analyzeTables(db: Db, tables: readonly ('sync_snapshots' | 'changes')[]): Promise<void> {
  for (const t of tables) await sql`analyze ${sql.table(t)}`.execute(db);
}

/**
 * After a full sync run emptied the change log: on Postgres, vacuums it (with fresh statistics).
 * A bulk load leaves millions of deleted change rows behind, and the planner, told by analyze that
 * the table is empty, reads the newest change (src/store/repositories/data-version-repo.ts, read
 * as each delivery starts) with a bitmap scan over every dead index entry, which never marks them
 * dead: 1.4 to 2 s a read at 100,000 crew (2.1 million dead entries) against 0.2 ms after a vacuum
 * (bench/results/sync-bursts-at-scale.md). Autovacuum does the same within a minute or so; the
 * run's own delivery, and the next run, do not wait for it. Not in a transaction (VACUUM cannot be).
 */
export async function vacuumChangeLog(db: Db): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`vacuum (analyze) changes`.execute(db);
  else await analyzeTables(db, ['changes']);
}
