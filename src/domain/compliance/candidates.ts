import { isListable } from '../document.ts';
import type { CompiledMatch } from './catalogue-index.ts';
import type { EvaluationDocument, RequirementStatus } from './types.ts';

/** A matching document as one requirement sees it; `expiry` may be capped (flag endorsement). */
export interface Candidate {
  doc: EvaluationDocument;
  expiry: string | null;
  noExpiry: boolean;
  /** Verified, approved and with a known expiry (or none): able to satisfy on its own. */
  valid: boolean;
}

export interface DateWindow {
  today: string;
  todayDay: number;
  /** today + windowDays. */
  windowEnd: string;
}

export interface Assessment {
  status: RequirementStatus;
  /** The row's document: best valid one, else best pending one; null when missing. */
  best: Candidate | null;
  satisfying: Candidate[];
}

export interface DocumentIndex {
  byCategory: Map<string, EvaluationDocument[]>;
  byStcwCode: Map<string, EvaluationDocument[]>;
}

function push(map: Map<string, EvaluationDocument[]>, key: string, doc: EvaluationDocument): void {
  const list = map.get(key);
  if (list) list.push(doc);
  else map.set(key, [doc]);
}

/** Listable documents by category code and STCW code; everything else is dropped here, once. */
export function indexDocuments(documents: readonly EvaluationDocument[]): DocumentIndex {
  const index: DocumentIndex = { byCategory: new Map(), byStcwCode: new Map() };
  for (const doc of documents) {
    if (!isListable(doc)) continue;
    push(index.byCategory, doc.classification.category_code, doc);
    for (const code of new Set(doc.classification.stcw_codes)) push(index.byStcwCode, code, doc);
  }
  return index;
}

export function matchingDocuments(index: DocumentIndex, match: CompiledMatch): EvaluationDocument[] {
  const lists: EvaluationDocument[][] = [];
  for (const code of match.categoryCodes) {
    const list = index.byCategory.get(code);
    if (list) lists.push(list);
  }
  for (const code of match.stcwCodes) {
    const list = index.byStcwCode.get(code);
    if (list) lists.push(list);
  }
  if (lists.length === 0) return [];
  if (lists.length === 1) return lists[0]!;
  return [...new Set(lists.flat())];
}

export function toCandidate(doc: EvaluationDocument): Candidate {
  const expiry = doc.noExpiry || doc.expiryDate === null ? null : doc.expiryDate.slice(0, 10);
  return {
    doc,
    expiry,
    noExpiry: doc.noExpiry,
    valid: doc.verificationStatus === 'verified' && doc.reviewStatus === 'approved' && (doc.noExpiry || expiry !== null),
  };
}

/** Best first: no expiry, then the latest expiry, then the latest issue, then document id. */
export function compareBest(a: Candidate, b: Candidate): number {
  if (a.noExpiry !== b.noExpiry) return a.noExpiry ? -1 : 1;
  if (a.expiry !== b.expiry) {
    if (a.expiry === null) return 1;
    if (b.expiry === null) return -1;
    return a.expiry > b.expiry ? -1 : 1;
  }
  const ai = a.doc.issueDate ?? '';
  const bi = b.doc.issueDate ?? '';
  if (ai !== bi) return ai > bi ? -1 : 1;
  return a.doc.documentId < b.doc.documentId ? -1 : a.doc.documentId > b.doc.documentId ? 1 : 0;
}

export function dateStatus(candidate: Candidate, dateWindow: DateWindow): 'met' | 'expiring' | 'expired' {
  if (candidate.noExpiry || candidate.expiry === null) return 'met';
  if (candidate.expiry < dateWindow.today) return 'expired';
  return candidate.expiry <= dateWindow.windowEnd ? 'expiring' : 'met';
}

/**
 * Status of a requirement from its candidates (docs/decisions.md §6). Unverified, unapproved or
 * undated candidates only count when nothing else is held: a verified document, even an
 * expired one, decides the status on its own.
 */
export function assess(candidates: readonly Candidate[], dateWindow: DateWindow): Assessment {
  if (candidates.length === 0) return { status: 'missing', best: null, satisfying: [] };
  const valid = candidates.filter((c) => c.valid).sort(compareBest);
  const best = valid[0];
  if (best === undefined) {
    const pending = [...candidates].sort(compareBest);
    return { status: 'pending', best: pending[0]!, satisfying: pending };
  }
  const status = dateStatus(best, dateWindow);
  const satisfying = status === 'expired' ? valid : valid.filter((c) => dateStatus(c, dateWindow) !== 'expired');
  return { status, best, satisfying };
}
