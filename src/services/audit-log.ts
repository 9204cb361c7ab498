import type { Db } from '../store/database.ts';
import type { AuditEntry } from '../domain/audit-entry.ts';
import { listAuditEntries } from '../store/repositories/audit-repo.ts';
import { checkedRange } from './time-range.ts';

/** What an operator asks of the audit log (`svc admin audit`). */
export interface AuditQuery {
  partnerId?: string;
  /** The `X-Request-Id` of an API call, or the `cli_…` id of an admin command. */
  requestId?: string;
  since?: string;
  until?: string;
  /** An inclusive range of statuses: one status (`404` → 404–404) or a class (`4xx` → 400–499). */
  status?: { from: number; to: number };
  /** Default 100. */
  limit?: number;
}

export const AUDIT_DEFAULT_LIMIT = 100;

/** Audit rows matching the query, newest first; since/until are checked (invalid_input) and normalised to UTC. */
export async function readAuditLog(db: Db, query: AuditQuery): Promise<AuditEntry[]> {
  const { since, until } = checkedRange(query.since, query.until);
  return listAuditEntries(db, {
    partnerId: query.partnerId,
    requestId: query.requestId,
    since,
    until,
    status: query.status,
    limit: query.limit ?? AUDIT_DEFAULT_LIMIT,
  });
}
