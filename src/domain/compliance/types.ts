import type { REQUIREMENT_GROUPS, RequirementDefinition } from '../catalogue.ts';
import type { CrewDocument } from '../document.ts';
import type { OverallStatus, RequirementStatus, TradingArea } from '../vocabulary.ts';

/**
 * The fields of a document the evaluator reads (a CrewDocument is one); the fleet list and the
 * matrix read only these from the store, a third less to convert per row.
 */
export type EvaluationDocument = Pick<
  CrewDocument,
  | 'documentId'
  | 'crewUniqueId'
  | 'title'
  | 'verificationStatus'
  | 'reviewStatus'
  | 'issueDate'
  | 'expiryDate'
  | 'noExpiry'
  | 'processingState'
  | 'isCurrent'
  | 'isLive'
  | 'documentClass'
  | 'classification'
>;

export type { OverallStatus, RequirementStatus } from '../vocabulary.ts';
export type RequirementGroup = (typeof REQUIREMENT_GROUPS)[number];

/** What the evaluator needs to know about the vessel of the assignment. */
export interface VesselFacts {
  vesselId: string;
  vesselType: string;
  grossTonnage: number;
  propulsionKw: number;
  /** ISO 3166-1 alpha-2; compared case-insensitively with document flag states. */
  flagState: string;
  tradingArea: TradingArea;
}

/** Everything one evaluation depends on; the evaluator reads nothing else (no clock, no store). */
export interface EvaluationInput {
  role: string;
  positionName: string | null;
  vessel: VesselFacts;
  catalogue: readonly RequirementDefinition[];
  /** Every document of the crew member; non-listable ones are ignored here. */
  documents: readonly EvaluationDocument[];
  /** YYYY-MM-DD, UTC. */
  today: string;
  /** A document expiring on or before today + windowDays is `expiring`. */
  windowDays: number;
  /**
   * YYYY-MM-DD the rows of the medical group are decided on, when not `today`: a reader without
   * crew:medical:read is shown them as they stand today whatever date it asks about (docs/decisions.md §6).
   */
  medicalOn?: string;
}

/**
 * A document behind a row. `expiryDate` is the document's own expiry; the row's `expiryDate` can
 * be earlier (a flag endorsement is never valid past its CoC).
 */
export interface SatisfyingDocument {
  documentId: string;
  title: string | null;
  expiryDate: string | null;
  documentClass: string;
}

/** One STCW module of a modular requirement (basic safety training). */
export interface ModuleRow {
  code: string;
  name: string | null;
  status: RequirementStatus | null;
  daysUntilExpiry: number | null;
  /** The module's best document, or null when none is held. */
  documentId: string | null;
  expiryDate: string | null;
  /** Class of that document, so medical documents can be withheld on the wire. */
  documentClass: string | null;
}

/** One requirement of the role on the vessel and how the crew member's documents meet it. */
export interface RequirementRow {
  key: string;
  group: RequirementGroup;
  category: string | null;
  title: string;
  code: string | null;
  constraint: string | null;
  status: RequirementStatus;
  /** Expiry of the best satisfying document (for modules: the module that lapses first). */
  expiryDate: string | null;
  daysUntilExpiry: number | null;
  required: boolean;
  /** Best first; empty exactly when the row is `missing`. */
  satisfiedBy: SatisfyingDocument[];
  modules: ModuleRow[] | null;
}

/** Counts by status over every row; the counts add up to `total`, the number of rows. */
export interface ComplianceSummary {
  total: number;
  met: number;
  expiring: number;
  expired: number;
  missing: number;
  pending: number;
}

/** The result of one evaluation, camelCase; `toComplianceWire` turns it into the partner shape. */
export interface ComplianceEvaluation {
  vesselId: string;
  positionName: string | null;
  overallStatus: OverallStatus;
  summary: ComplianceSummary;
  requirements: RequirementRow[];
}
