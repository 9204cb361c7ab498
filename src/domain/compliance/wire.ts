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
  /** YYYY-MM-DD the medical rows were decided on, when not `on`; shown as `medical_on` (docs/decisions.md §6). */
  medicalOn?: string;
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
  /** Present when the medical rows are shown as they stand on another date than `on`: today, for a key without crew:medical:read. */
  medical_on?: string;
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

function moduleWire(moduleRow: ModuleRow, hidden: boolean): ModuleRowWire {
  return {
    code: moduleRow.code,
    name: moduleRow.name,
    status: moduleRow.status,
    days_until_expiry: hidden ? null : moduleRow.daysUntilExpiry,
    document_id: hidden ? null : moduleRow.documentId,
  };
}

// Without crew:medical:read a medical row keeps its status but none of its document details
// (docs/decisions.md §6); a medical-class document behind any other row is withheld the same way.
function rowWire(row: RequirementRow, options: WireOptions): RequirementRowWire {
  const hideRow = !options.medicalVisible && row.group === 'medical';
  const hideDoc = (documentClass: string | null): boolean => hideRow || (!options.medicalVisible && documentClass === 'medical');
  return {
    key: row.key,
    group: row.group,
    category: row.category,
    title: row.title,
    code: row.code,
    constraint: row.constraint,
    status: row.status,
    expiry_date: hideRow ? null : row.expiryDate,
    days_until_expiry: hideRow ? null : row.daysUntilExpiry,
    required: row.required,
    satisfied_by: row.satisfiedBy
      .filter((d) => !hideDoc(d.documentClass))
      .map((d) => ({
        document_id: d.documentId,
        title: d.title,
        expiry_date: d.expiryDate,
        download_path: options.downloadPath(d.documentId),
      })),
    modules: row.modules === null ? null : row.modules.map((m) => moduleWire(m, hideDoc(m.documentClass))),
  };
}

export function toComplianceWire(evaluation: ComplianceEvaluation, options: WireOptions): ComplianceCheckWire {
  return {
    crew_unique_id: options.crewUniqueId,
    vessel_id: evaluation.vesselId,
    position_name: evaluation.positionName,
    as_of: wireTime(options.asOf),
    ...(options.on !== undefined ? { on: options.on } : {}),
    ...(options.medicalOn !== undefined ? { medical_on: options.medicalOn } : {}),
    overall_status: evaluation.overallStatus,
    compliance_source: options.source,
    // The summary's counts are the wire's, name for name (total and one per row status).
    summary: { ...evaluation.summary },
    requirements: evaluation.requirements.map((r) => rowWire(r, options)),
  };
}

/**
 * Earliest expiry among required met/expiring rows (docs/decisions.md §7), or null. Without crew:medical:read, medical rows'
 * expiry fields are withheld (docs/decisions.md §6), so they do not count here either.
 */
export function nextExpiryDate(evaluation: ComplianceEvaluation, medicalVisible = true): string | null {
  let next: string | null = null;
  for (const row of evaluation.requirements) {
    if (!medicalVisible && row.group === 'medical') continue;
    if (!row.required || (row.status !== 'met' && row.status !== 'expiring') || row.expiryDate === null) continue;
    if (next === null || row.expiryDate < next) next = row.expiryDate;
  }
  return next;
}

/**
 * Whether the payload built with medical rows visible holds medical data: its next_expiry_date is
 * a medical row's, earlier than every other (docs/webhooks.md, "Medical data in payloads").
 */
export function nextExpiryIsMedical(evaluation: ComplianceEvaluation, medicalVisible: boolean): boolean {
  return medicalVisible && nextExpiryDate(evaluation, true) !== nextExpiryDate(evaluation, false);
}

export function complianceChangedPayload(
  evaluation: ComplianceEvaluation,
  crewUniqueId: string,
  medicalVisible = true,
): ComplianceChangedPayload {
  return {
    crew_unique_id: crewUniqueId,
    vessel_id: evaluation.vesselId,
    overall_status: evaluation.overallStatus,
    requirements_met: evaluation.summary.met,
    requirements_total: evaluation.summary.total,
    requirements_expiring: evaluation.summary.expiring,
    next_expiry_date: nextExpiryDate(evaluation, medicalVisible),
  };
}
