import type { Selectable } from 'kysely';
import type { AuditLogTable, Db } from '../database.ts';

/** One audited call: who, what, outcome. Never the key, never a body. */
export interface AuditEntry {
  requestId: string;
  at: string;
  partnerId: string | null;
  keyId: string | null;
  method: string;
  /** Route template such as `/api/v2/employers/me/crew/{crew_unique_id}/documents`; null when none matched. */
  route: string | null;
  path: string;
  crewUniqueId: string | null;
  documentId: string | null;
  status: number;
  latencyMs: number;
  clientIp: string | null;
}

function toAuditEntry(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    requestId: row.request_id,
    at: row.at,
    partnerId: row.partner_id,
    keyId: row.key_id,
    method: row.method,
    route: row.route,
    path: row.path,
    crewUniqueId: row.crew_unique_id,
    documentId: row.document_id,
    status: row.status,
    latencyMs: row.latency_ms,
    clientIp: row.client_ip,
  };
}

/** Postgres text cannot hold NUL, which a client can put in a path (`%00`): stored as U+FFFD. */
const text = <T extends string | null>(value: T): T => (value === null ? value : value.replaceAll('\u0000', '\uFFFD') as T);

function toRow(entry: AuditEntry) {
  return {
    request_id: entry.requestId, at: entry.at, partner_id: text(entry.partnerId), key_id: entry.keyId, method: text(entry.method), route: entry.route,
    path: text(entry.path), crew_unique_id: text(entry.crewUniqueId), document_id: text(entry.documentId), status: entry.status,
    latency_ms: Math.round(entry.latencyMs), client_ip: entry.clientIp,
  };
}

/** Several rows in one statement (the audit middleware's group commit). */
export async function insertAuditEntries(db: Db, entries: readonly AuditEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += 500) await db.insertInto('audit_log').values(entries.slice(i, i + 500).map(toRow)).execute();
}

export async function findAuditEntries(db: Db, requestId: string): Promise<AuditEntry[]> {
  const rows = await db.selectFrom('audit_log').selectAll().where('request_id', '=', requestId).orderBy('audit_id').execute();
  return rows.map(toAuditEntry);
}

/** Which audit rows an operator reads; `since`/`until` bound `at`, both inclusive (ISO-8601 UTC); `status` is an inclusive range. */
export interface AuditFilter {
  partnerId?: string;
  since?: string;
  until?: string;
  status?: { from: number; to: number };
  limit: number;
}

/** Audit rows matching the filter, newest first. */
export async function listAuditEntries(db: Db, filter: AuditFilter): Promise<AuditEntry[]> {
  let query = db.selectFrom('audit_log').selectAll();
  if (filter.partnerId !== undefined) query = query.where('partner_id', '=', filter.partnerId);
  if (filter.since !== undefined) query = query.where('at', '>=', filter.since);
  if (filter.until !== undefined) query = query.where('at', '<=', filter.until);
  if (filter.status !== undefined) query = query.where('status', '>=', filter.status.from).where('status', '<=', filter.status.to);
  const rows = await query.orderBy('at', 'desc').orderBy('audit_id', 'desc').limit(filter.limit).execute();
  return rows.map(toAuditEntry);
}
