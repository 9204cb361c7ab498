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
  /** The trace the call was recorded under (32 hex, docs/operations.md "Traces"); null when tracing is off or the trace not sampled. */
  traceId: string | null;
}

/**
 * The audit log's columns, each with the AuditEntry field it holds, in the one order everything
 * uses: `svc admin audit` prints them in it and the store writes a row's values in it
 * (src/store/repositories/audit-repo.ts).
 */
export const AUDIT_COLUMNS = [
  ['at', 'at'],
  ['request_id', 'requestId'],
  ['partner_id', 'partnerId'],
  ['key_id', 'keyId'],
  ['method', 'method'],
  ['route', 'route'],
  ['path', 'path'],
  ['status', 'status'],
  ['latency_ms', 'latencyMs'],
  ['crew_unique_id', 'crewUniqueId'],
  ['document_id', 'documentId'],
  ['client_ip', 'clientIp'],
  ['trace_id', 'traceId'],
] as const satisfies readonly (readonly [string, keyof AuditEntry])[];

export type AuditColumn = (typeof AUDIT_COLUMNS)[number][0];

/** Every field of AuditEntry has its column: a field added without one fails to compile here. */
const everyField: Exclude<keyof AuditEntry, (typeof AUDIT_COLUMNS)[number][1]> extends never ? true : never = true;
void everyField;
