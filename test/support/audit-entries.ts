import type { AuditEntry } from '../../src/domain/audit-entry.ts';

/** A partner's successful crew list call, audited at `at`, with `overrides` applied. */
export function auditEntry(requestId: string, at: string, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    requestId,
    at,
    partnerId: 'ptn_a',
    keyId: 'key_a',
    method: 'GET',
    route: '/api/v2/employers/me/crew',
    path: '/api/v2/employers/me/crew',
    crewUniqueId: null,
    documentId: null,
    status: 200,
    latencyMs: 3,
    clientIp: '127.0.0.1',
    traceId: null,
    ...overrides,
  };
}
