import type { ComplianceEvaluation, ComplianceSummary, ModuleRow, OverallStatus, RequirementRow, RequirementStatus } from './types.ts';
import type { ComplianceSource } from '../vocabulary.ts';
import { wireTime } from '../clock.ts';

/** Options of one rendering of an evaluation for a partner. */
export interface WireOptions {
  /** ISO date-time the result was worked out (or stored, for a fallback). */
  asOf: string;
  crewUniqueId: string;
  source: ComplianceSource;
  /** The partner holds crew:medical:read. */
  medicalVisible: boolean;
  /** The service-hosted file link of a document, or null when the key may not download. */
  downloadPath: (documentId: string) => string | null;
  /** YYYY-MM-DD the documents were evaluated on; shown as `on` when given. */
  on?: string;
}

export interface SatisfyingDocumentWire {
  document_id: string;
  title: string | null;
  expiry_date: string | null;
  download_path: string | null;
}

export interface ModuleRowWire {
  code: string;
  name: string | null;
  status: RequirementStatus | null;
  days_until_expiry: number | null;
  document_id: string | null;
}

export interface RequirementRowWire {
  key: string;
  group: string;
  category: string | null;
  title: string | null;
  code: string | null;
  constraint: string | null;
  status: RequirementStatus;
  expiry_date: string | null;
  days_until_expiry: number | null;
  required: boolean;
  satisfied_by: SatisfyingDocumentWire[];
  modules: ModuleRowWire[] | null;
}

/** The compliance check result of docs/contract.md, field for field. */
export interface ComplianceCheckWire {
  crew_unique_id: string;
  vessel_id: string | null;
  position_name: string | null;
  as_of: string;
  /** The date evaluated: today, or the check's `on` (docs/compliance.md). */
  on?: string;
  overall_status: OverallStatus;
  compliance_source: WireOptions['source'];
  summary: ComplianceSummary;
  requirements: RequirementRowWire[];
}

/** The data of a crew.compliance.changed event (docs/contract.md, docs/decisions.md §7). */
export interface ComplianceChangedPayload {
  crew_unique_id: string;
  vessel_id: string;
  overall_status: OverallStatus;
  requirements_met: number;
  requirements_total: number;
  requirements_expiring: number;
  next_expiry_date: string | null;
}

function moduleWire(m: ModuleRow, hidden: boolean): ModuleRowWire {
  return {
    code: m.code,
    name: m.name,
    status: m.status,
    days_until_expiry: hidden ? null : m.daysUntilExpiry,
    document_id: hidden ? null : m.documentId,
  };
}

// Without crew:medical:read a medical row keeps its status but none of its document details
// (docs/decisions.md §6); a medical-class document behind any other row is withheld the same way.
function rowWire(r: RequirementRow, o: WireOptions): RequirementRowWire {
  const hideRow = !o.medicalVisible && r.group === 'medical';
  const hideDoc = (documentClass: string | null): boolean => hideRow || (!o.medicalVisible && documentClass === 'medical');
  return {
    key: r.key,
    group: r.group,
    category: r.category,
    title: r.title,
    code: r.code,
    constraint: r.constraint,
    status: r.status,
    expiry_date: hideRow ? null : r.expiryDate,
    days_until_expiry: hideRow ? null : r.daysUntilExpiry,
    required: r.required,
    satisfied_by: r.satisfiedBy
      .filter((d) => !hideDoc(d.documentClass))
      .map((d) => ({ document_id: d.documentId, title: d.title, expiry_date: d.expiryDate, download_path: o.downloadPath(d.documentId) })),
    modules: r.modules === null ? null : r.modules.map((m) => moduleWire(m, hideDoc(m.documentClass))),
  };
}

export function toComplianceWire(e: ComplianceEvaluation, o: WireOptions): ComplianceCheckWire {
  return {
    crew_unique_id: o.crewUniqueId,
    vessel_id: e.vesselId,
    position_name: e.positionName,
    as_of: wireTime(o.asOf),
    ...(o.on !== undefined ? { on: o.on } : {}),
    overall_status: e.overallStatus,
    compliance_source: o.source,
    // The summary's counts are the wire's, name for name (total and one per row status).
    summary: { ...e.summary },
    requirements: e.requirements.map((r) => rowWire(r, o)),
  };
}

/**
 * Earliest expiry among required met/expiring rows (docs/decisions.md §7), or null. Without crew:medical:read, medical rows'
 * expiry fields are withheld (docs/decisions.md §6), so they do not count here either.
 */
export function nextExpiryDate(e: ComplianceEvaluation, medicalVisible = true): string | null {
  let next: string | null = null;
  for (const r of e.requirements) {
    if (!medicalVisible && r.group === 'medical') continue;
    if (!r.required || (r.status !== 'met' && r.status !== 'expiring') || r.expiryDate === null) continue;
    if (next === null || r.expiryDate < next) next = r.expiryDate;
  }
  return next;
}

export function complianceChangedPayload(e: ComplianceEvaluation, crewUniqueId: string, medicalVisible = true): ComplianceChangedPayload {
  return {
    crew_unique_id: crewUniqueId,
    vessel_id: e.vesselId,
    overall_status: e.overallStatus,
    requirements_met: e.summary.met,
    requirements_total: e.summary.total,
    requirements_expiring: e.summary.expiring,
    next_expiry_date: nextExpiryDate(e, medicalVisible),
  };
}
