import { sql, type Selectable } from 'kysely';
import type { AuditLogTable, Db } from '../database.ts';
import { dialectOf } from '../dialect-of.ts';
import { AUDIT_COLUMNS, type AuditEntry } from '../../domain/audit-entry.ts';

function toAuditEntry(row: Selectable<AuditLogTable>): AuditEntry {
  return Object.fromEntries(AUDIT_COLUMNS.map(([column, field]) => [field, row[column]])) as unknown as AuditEntry;
}

/**
 * A value as stored: text with NUL (which a client can put in a path, `%00`, and Postgres text
 * cannot hold) as U+FFFD; numbers whole (the latency is measured in fractions of a millisecond).
 */
function stored(value: AuditEntry[keyof AuditEntry]): string | number | null {
  if (typeof value === 'string') return value.replaceAll('\u0000', '\uFFFD');
  return typeof value === 'number' ? Math.round(value) : value;
}

/** The columns written, in the order of a row's JSON array (auditRowText). */
const COLUMNS = AUDIT_COLUMNS.map(([column]) => column);
/** The integer columns: Postgres reads every element as text, and these are cast. */
const INTEGER_COLUMNS = new Set<string>(['status', 'latency_ms']);

/**
 * A row as it waits to be written: the JSON array of its values in COLUMNS order. One flat string
 * per waiting row, not an object and its strings: rows wait up to the audit interval, long enough
 * for the garbage collector to move them out of its young generation, and a string is one move.
 */
export type AuditRowText = string & { readonly auditRow: unique symbol };

export function auditRowText(entry: AuditEntry): AuditRowText {
  return JSON.stringify(AUDIT_COLUMNS.map(([, field]) => stored(entry[field]))) as AuditRowText;
}

/**
 * The rows of a batch insert as a query over one parameter, the rows as a JSON array of arrays,
 * which the store takes apart in array order: SQLite's jsonb_each parses the text once (json_each
 * would hand each row back as text, parsed again for every column), Postgres's
 * jsonb_array_elements likewise. Built value by value through Kysely and bound one by one, a batch
 * cost the event loop about 10 µs per row (docs/performance.md); now the loop spends one
 * JSON.stringify per row, when it is recorded.
 */
const SQLITE_VALUES = sql.raw(COLUMNS.map((_, i) => `value ->> ${i}`).join(', '));
const POSTGRES_VALUES = sql.raw(COLUMNS.map((c, i) => (INTEGER_COLUMNS.has(c) ? `(r ->> ${i})::integer` : `r ->> ${i}`)).join(', '));
const selectRows = {
  sqlite: (rows: string) => sql`select ${SQLITE_VALUES} from jsonb_each(${rows}) order by key`,
  postgres: (rows: string) =>
    sql`select ${POSTGRES_VALUES} from jsonb_array_elements(cast(${rows} as jsonb)) with ordinality as t(r, n) order by n`,
};

/** Several rows in one statement (the audit middleware's group commit), ids in the order given. */
export async function insertAuditRows(db: Db, texts: readonly AuditRowText[]): Promise<void> {
  if (texts.length === 0) return;
  await db
    .insertInto('audit_log')
    .columns(COLUMNS)
    .expression(selectRows[dialectOf(db)](`[${texts.join(',')}]`))
    .execute();
}

export async function findAuditEntries(db: Db, requestId: string): Promise<AuditEntry[]> {
  const rows = await db.selectFrom('audit_log').selectAll().where('request_id', '=', requestId).orderBy('audit_id').execute();
  return rows.map(toAuditEntry);
}

/** Which audit rows an operator reads; `since`/`until` bound `at`, both inclusive (ISO-8601 UTC); `status` is an inclusive range. */
export interface AuditFilter {
  partnerId?: string;
  /** One request's rows (audit_log_request). */
  requestId?: string;
  since?: string;
  until?: string;
  status?: { from: number; to: number };
  limit: number;
}

/** Audit rows matching the filter, newest first. */
export async function listAuditEntries(db: Db, filter: AuditFilter): Promise<AuditEntry[]> {
  let query = db.selectFrom('audit_log').selectAll();
  if (filter.partnerId !== undefined) query = query.where('partner_id', '=', filter.partnerId);
  if (filter.requestId !== undefined) query = query.where('request_id', '=', filter.requestId);
  if (filter.since !== undefined) query = query.where('at', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('at', '<=', filter.until);
  if (filter.status !== undefined) query = query.where('status', '>=', filter.status.from).where('status', '<=', filter.status.to);
  const rows = await query.orderBy('at', 'desc').orderBy('audit_id', 'desc').limit(filter.limit).execute();
  return rows.map(toAuditEntry);
}

/**
 * Deletes up to `limit` rows recorded before `before` (ISO-8601 UTC), oldest first, found through
 * audit_log_at. Returns how many went.
 */
export async function deleteAuditRowsBefore(db: Db, before: string, limit: number): Promise<number> {
  const oldest = db.selectFrom('audit_log').select('audit_id').where('at', '<', before).orderBy('at').limit(limit);
  const result = await db.deleteFrom('audit_log').where('audit_id', 'in', oldest).executeTakeFirst();
  return Number(result.numDeletedRows);
}
