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
export function isListable(document: Pick<CrewDocument, 'processingState' | 'isCurrent' | 'isLive'>): boolean {
  return document.processingState === 'processed' && document.isCurrent && document.isLive;
}

/** Expired on `today` (YYYY-MM-DD, UTC): an expiry date strictly before today. */
export function isExpired(document: Pick<CrewDocument, 'expiryDate' | 'noExpiry'>, today: string): boolean {
  return !document.noExpiry && document.expiryDate !== null && document.expiryDate < today;
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

export function toDocumentWire(document: CrewDocument, today: string): DocumentWire {
  const expired = isExpired(document, today);
  return {
    document_id: document.documentId,
    type: document.type,
    category: document.category,
    title: document.title,
    issuer: document.issuer,
    verification_status: document.verificationStatus,
    status: !document.isCurrent ? 'superseded' : expired ? 'expired' : 'active',
    issue_date: document.issueDate,
    expiry_date: document.expiryDate,
    document_number: document.documentNumber,
    review_status: document.reviewStatus,
    is_expired: expired,
    no_expiry: document.noExpiry,
    is_current: document.isCurrent,
    superseded_by: document.supersededBy,
    classification: document.classification,
  };
}
