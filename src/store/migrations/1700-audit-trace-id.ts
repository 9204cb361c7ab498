import type { Kysely } from 'kysely';

/*
 * The trace a call was recorded under (docs/operations.md, "Traces"): 32 hex characters, the id an
 * operator looks the call up by in the tracing backend. Null when tracing was off, the trace not
 * sampled, and for rows written before this migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_log').addColumn('trace_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_log').dropColumn('trace_id').execute();
}
