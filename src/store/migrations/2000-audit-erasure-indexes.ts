import type { Kysely } from 'kysely';

/*
 * Erasing a crew member takes them out of the audit log (src/store/repositories/ingest-entities-repo.ts,
 * scrubAuditLog): the rows attributed to them or to one of their documents, and the rows of calls
 * no route matched whose path named one of their ids. Without these indexes each erasure read the
 * whole log (a row per API call, kept a year) inside the ingest transaction; with them it reads the
 * rows about the crew member and the unrouted ones. Partial: most rows name no crew member or
 * document, and nearly every row has a route.
 *
 * A 405 (a route's path asked with another method) is now attributed to the crew member and
 * document its path names (src/http/middleware/fallback.ts); the 405 rows recorded before are
 * attributed here, so that an erasure, which no longer searches routed paths, still finds them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('audit_log_crew').on('audit_log').column('crew_unique_id').where('crew_unique_id', 'is not', null).execute();
  await db.schema.createIndex('audit_log_document').on('audit_log').column('document_id').where('document_id', 'is not', null).execute();
  await db.schema.createIndex('audit_log_unrouted').on('audit_log').column('route').where('route', 'is', null).execute();
  await attributeEarlier405s(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_log_unrouted').ifExists().execute();
  await db.schema.dropIndex('audit_log_document').ifExists().execute();
  await db.schema.dropIndex('audit_log_crew').ifExists().execute();
}

/** The ids a path names where its route template has `{crew_unique_id}` and `{document_id}`. */
function idsOf(route: string, path: string): { crew: string | null; document: string | null } {
  const names: string[] = [];
  const pattern = route.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => (names.push(name), '([^/]+)'));
  const match = new RegExp(`^${pattern}$`).exec(path);
  const value = (name: string) => {
    const at = names.indexOf(name);
    const raw = at < 0 ? undefined : match?.[at + 1];
    if (raw === undefined) return null;
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  };
  return { crew: value('crew_unique_id'), document: value('document_id') };
}

async function attributeEarlier405s(db: Kysely<any>): Promise<void> {
  const rows: Array<{ audit_id: number | string; route: string; path: string }> = await db
    .selectFrom('audit_log')
    .select(['audit_id', 'route', 'path'])
    .where('status', '=', 405)
    .where('route', 'like', '%{crew_unique_id}%')
    .where('crew_unique_id', 'is', null)
    .execute();
  for (const row of rows) {
    const { crew, document } = idsOf(row.route, row.path);
    if (crew === null) continue;
    await db.updateTable('audit_log').set({ crew_unique_id: crew, document_id: document }).where('audit_id', '=', row.audit_id).execute();
  }
}
