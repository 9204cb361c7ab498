import type { Kysely } from 'kysely';

/*
 * Where a recorded `svc sync` run's time went (docs/operations.md, "Where a run's time went"):
 * milliseconds per phase and the pages of crew its diff went through, written when the run ends.
 * Null for runs recorded before this migration and for a run still going.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of ['read_ms', 'diff_ms', 'write_ms', 'deliver_ms', 'pages']) {
    await db.schema.alterTable('sync_runs').addColumn(column, 'integer').execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['read_ms', 'diff_ms', 'write_ms', 'deliver_ms', 'pages']) {
    await db.schema.alterTable('sync_runs').dropColumn(column).execute();
  }
}
