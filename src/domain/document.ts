import type { Classification } from './classification.ts';
import type { DocumentStatus, ProcessingState, ReviewStatus, VerificationStatus } from './vocabulary.ts';

/** A crew document as the domain sees it (converted from its row in the documents repository). */
export interface CrewDocument {
  documentId: string;
  crewUniqueId: string;
  type: string;
  category: string;
  title: string;
  issuer: string | null;
  verificationStatus: VerificationStatus;
  reviewStatus: ReviewStatus;
  issueDate: string | null;
  expiryDate: string | null;
  noExpiry: boolean;
  documentNumber: string | null;
  processingState: ProcessingState;
  isCurrent: boolean;
  isLive: boolean;
  supersededBy: string | null;
  documentClass: string;
  classification: Classification;
  fileId: string | null;
  fileName: string | null;
  contentType: string | null;
  processedAt: string | null;
  updatedAt: string;
}

/** Listable: finished processing, current edition, not withdrawn (docs/contract.md, "Crew document"). */
export function isListable(d: Pick<CrewDocument, 'processingState' | 'isCurrent' | 'isLive'>): boolean {
  return d.processingState === 'processed' && d.isCurrent && d.isLive;
}

/** Expired on `today` (YYYY-MM-DD, UTC): an expiry date strictly before today. */
export function isExpired(d: Pick<CrewDocument, 'expiryDate' | 'noExpiry'>, today: string): boolean {
  return !d.noExpiry && d.expiryDate !== null && d.expiryDate < today;
}

/** The wire shape of a document (list item, event payload), snake_case, in the spec's field order. */
export interface DocumentWire {
  document_id: string;
  type: string;
  category: string;
  title: string;
  issuer: string | null;
  verification_status: VerificationStatus;
  status: DocumentStatus;
  issue_date: string | null;
  expiry_date: string | null;
  document_number: string | null;
  review_status: ReviewStatus;
  is_expired: boolean;
  no_expiry: boolean;
  is_current: boolean;
  superseded_by: string | null;
  classification: Classification;
}

export function toDocumentWire(d: CrewDocument, today: string): DocumentWire {
  const expired = isExpired(d, today);
  return {
    document_id: d.documentId,
    type: d.type,
    category: d.category,
    title: d.title,
    issuer: d.issuer,
    verification_status: d.verificationStatus,
    status: !d.isCurrent ? 'superseded' : expired ? 'expired' : 'active',
    issue_date: d.issueDate,
    expiry_date: d.expiryDate,
    document_number: d.documentNumber,
    review_status: d.reviewStatus,
    is_expired: expired,
    no_expiry: d.noExpiry,
    is_current: d.isCurrent,
    superseded_by: d.supersededBy,
    classification: d.classification,
  };
}

/** UTC calendar date of an instant, `YYYY-MM-DD`. */
export function utcDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}
