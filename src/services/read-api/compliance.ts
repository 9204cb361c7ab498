import { toComplianceWire, type WireOptions } from '../../domain/compliance/index.ts';
import { utcDate } from '../../domain/clock.ts';
import { DOCUMENT_DOWNLOAD_SCOPES, missingScope } from '../../domain/scopes.ts';
import type { Db } from '../../store/database.ts';
import { documentIdsWithFiles } from '../../store/repositories/documents-repo.ts';
import {
  catalogueId as linkKeyId,
  checkCompliance,
  chooseAssignment,
  satisfyingDocumentIds,
  type ComplianceDeps,
  type ComplianceOutcome,
  type LiveEvaluation,
} from '../compliance/check-compliance.ts';
import type { VersionedCache } from '../plumbing/versioned-cache.ts';
import { requireCrewAccess, type CrewAccess } from '../visibility/access.ts';
import type { PartnerContext } from '../visibility/partner-context.ts';
import { checkText, type CheckAnswers } from './check-answer.ts';
import { signFileLink } from './documents.ts';

/** How `satisfied_by[].download_path` links are signed, and the origin that makes them absolute. */
export interface LinkOptions {
  key: Buffer;
  now: Date;
  ttlSeconds: number;
  /** As for `download_url`: SVC_PUBLIC_BASE_URL, or the request's origin on a loopback listener. */
  baseUrl: string;
}

/**
 * A check's dependencies. With `reuse` (the HTTP check), the data version is read once per call and
 * both the fleet-and-consent answer and the evaluation are reused at it.
 */
export interface CheckDeps extends Omit<ComplianceDeps, 'reuse'> {
  reuse?: {
    version: () => Promise<string | null>;
    evaluations: VersionedCache<LiveEvaluation>;
    crewAccess: VersionedCache<CrewAccess>;
    /** Answers rendered once per evaluation and reader (src/services/read-api/check-answer.ts). */
    answers: CheckAnswers;
  };
}

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
 * absolute URLs, built like the download endpoint's `download_url`. With `deps.reuse`, the data
 * version is read once, first, and both the fleet-and-consent answer and the evaluation are reused
 * at it: a call whose crew member was checked at the same version sends no query but that shared
 * version read, and its answer's text is the one rendered for the same evaluation and reader,
 * with a new `as_of` and, after LINK_REUSE_SECONDS, links signed anew. Returns the JSON, UTF-8.
 */
export async function runComplianceCheck(
  db: Db,
  ctx: PartnerContext,
  crewUniqueId: string,
  target: { vesselId?: string; on?: string },
  deps: CheckDeps,
  links: LinkOptions,
): Promise<Buffer> {
  const reuse = deps.reuse;
  const version = reuse ? await reuse.version() : null;
  const { assignments, consents } = await requireCrewAccess(
    db,
    ctx,
    crewUniqueId,
    'compliance',
    reuse && { version, cache: reuse.crewAccess },
  );
  const evaluating: ComplianceDeps = { ...deps, reuse: reuse && { version, cache: reuse.evaluations } };
  const medicalVisible = ctx.scopes.has('crew:medical:read');
  const outcome = await checkCompliance(
    db,
    evaluating,
    crewUniqueId,
    chooseAssignment(assignments, crewUniqueId, target.vesselId),
    target.on,
    medicalVisible,
  );
  const canDownload = missingScope(DOCUMENT_DOWNLOAD_SCOPES, ctx.scopes) === null && consents.has('documents');
  const withFiles: ReadonlySet<string> = canDownload ? await filesOf(db, outcome) : new Set<string>();
  const nowSeconds = Math.floor(links.now.getTime() / 1000);
  const live = outcome.source === 'live_evaluator';
  // A fallback is an evaluation of the day it was stored on.
  const on = live ? (target.on ?? utcDate(deps.clock())) : outcome.asOf.slice(0, 10);
  const options = (signedAt: number): WireOptions => ({
    asOf: outcome.asOf,
    on,
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
            expiresAt: signedAt + links.ttlSeconds,
          })}`
        : null,
  });
  if (!reuse || !live) return checkText(outcome.evaluation, options(nowSeconds));
  const reader = JSON.stringify([
    crewUniqueId,
    on,
    outcome.medicalOn ?? null,
    medicalVisible,
    canDownload,
    ctx.partner.partnerId,
    ctx.keyId,
    ctx.mode,
    links.baseUrl,
    links.ttlSeconds,
    linkKeyId(links.key),
  ]);
  return reuse.answers.text(outcome.evaluation, reader, outcome.asOf, withFiles.size > 0, nowSeconds, () =>
    toComplianceWire(outcome.evaluation, options(nowSeconds)),
  );
}
