import { toComplianceWire, type ComplianceCheckWire } from '../../domain/compliance/index.ts';
import { DOCUMENT_DOWNLOAD_SCOPES, missingScope } from '../../domain/scopes.ts';
import type { Db } from '../../store/database.ts';
import { documentIdsWithFiles, type EvaluationDocumentWithFile } from '../../store/repositories/documents-repo.ts';
import {
  checkCompliance,
  chooseAssignment,
  satisfyingDocumentIds,
  type ComplianceDeps,
  type ComplianceOutcome,
  type EvaluationInput,
  type LiveEvaluation,
} from '../compliance/check-compliance.ts';
import { requireCrewAccess, type ReadCheckAccess } from '../visibility/access.ts';
import type { PartnerContext } from '../visibility/partner-context.ts';
import { signFileLink } from './documents.ts';

/** How `satisfied_by[].download_path` links are signed, and the origin that makes them absolute. */
export interface LinkOptions {
  key: Buffer;
  now: Date;
  ttlSeconds: number;
  /** As for `download_url`: SVC_PUBLIC_BASE_URL, or the request's origin on a loopback listener. */
  baseUrl: string;
}

/** The reads of one compliance check, all at one data version: the store's, or the read cache's (src/services/read-cache/). */
export interface CheckReads {
  crewAccess: ReadCheckAccess;
  /** Evaluates `documents` when crewAccess brought them, else the store's. */
  evaluate: (input: EvaluationInput, documents?: EvaluationDocumentWithFile[]) => Promise<LiveEvaluation>;
}

/** A check's dependencies: the evaluation's, with the read of the crew member's fleet, consents and documents. */
export type CheckDeps = Omit<ComplianceDeps, 'evaluate'> & CheckReads;

/** Which documents satisfying a requirement have a stored file: known with a live evaluation, else asked. */
async function filesOf(db: Db, outcome: ComplianceOutcome): Promise<ReadonlySet<string>> {
  return outcome.withFiles ?? documentIdsWithFiles(db, [...satisfyingDocumentIds(outcome.evaluation)]);
}

/**
 * `POST …/crew/{crew_unique_id}/compliance-checks`: fleet (404), compliance consent, then
 * a live evaluation with the stored-result fallback. Without crew:medical:read, medical rows lose
 * their document details and are decided on today whatever `on` (docs/decisions.md §6); download
 * paths are given only to keys that could follow them (crew:documents:download and documents
 * consent) and only for documents with a file; they are
 * absolute URLs, built like the download endpoint's `download_url`, signed at `links.now`.
 */
export async function runComplianceCheck(
  db: Db,
  ctx: PartnerContext,
  crewUniqueId: string,
  target: { vesselId?: string; on?: string },
  deps: CheckDeps,
  links: LinkOptions,
): Promise<ComplianceCheckWire> {
  const { assignments, consents, documents } = await requireCrewAccess(deps.crewAccess, ctx, crewUniqueId, 'compliance');
  const medicalVisible = ctx.scopes.has('crew:medical:read');
  const outcome = await checkCompliance(
    db,
    { ...deps, evaluate: (input) => deps.evaluate(input, documents) },
    crewUniqueId,
    chooseAssignment(assignments, crewUniqueId, target.vesselId),
    target.on,
    medicalVisible,
  );
  const canDownload = missingScope(DOCUMENT_DOWNLOAD_SCOPES, ctx.scopes) === null && consents.has('documents');
  const withFiles: ReadonlySet<string> = canDownload ? await filesOf(db, outcome) : new Set<string>();
  const expiresAt = Math.floor(links.now.getTime() / 1000) + links.ttlSeconds;
  return toComplianceWire(outcome.evaluation, {
    asOf: outcome.asOf,
    on: outcome.on,
    ...(outcome.medicalOn !== undefined ? { medicalOn: outcome.medicalOn } : {}),
    crewUniqueId,
    source: outcome.source,
    medicalVisible,
    downloadPath: (documentId) =>
      withFiles.has(documentId)
        ? `${links.baseUrl}/api/v2/files/${signFileLink(links.key, {
            documentId,
            crewUniqueId,
            partnerId: ctx.partner.partnerId,
            keyId: ctx.keyId,
            mode: ctx.mode,
            expiresAt,
          })}`
        : null,
  });
}
