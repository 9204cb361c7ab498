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
