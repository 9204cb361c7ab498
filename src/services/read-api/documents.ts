import { AppError } from '../../domain/app-error.ts';
import type { KeyMode } from '../../domain/vocabulary.ts';
import { toDocumentWire, type CrewDocument, type DocumentWire } from '../../domain/document.ts';
import type { Db } from '../../store/database.ts';
import { findVisibleDocument, visibleDocuments } from '../visibility/documents.ts';
import { readWithCrewAccess, requireCrewAccess, storeCrewAccess } from '../visibility/access.ts';
import type { PartnerContext } from '../visibility/partner-context.ts';
import { signToken } from './signed-token.ts';
import { wireTime } from '../../domain/clock.ts';

export interface DocumentListWire {
  crew_unique_id: string;
  items: DocumentWire[];
}

/** The document list (docs/contract.md): fleet (404), documents consent (403), medical gating. */
export async function listCrewDocuments(db: Db, ctx: PartnerContext, crewUniqueId: string, today: string): Promise<DocumentListWire> {
  const docs = await readWithCrewAccess(db, ctx, crewUniqueId, 'documents', () => visibleDocuments(db, ctx, crewUniqueId));
  return { crew_unique_id: crewUniqueId, items: docs.map((d) => toDocumentWire(d, today)) };
}

/**
 * The document behind a download or file link, with every gate the documents list applies (the
 * caller checked the download scope): a
 * document the list would not show (not listable, medical without crew:medical:read) or without
 * a stored file is document_not_found.
 */
export async function requireDownloadableDocument(
  db: Db,
  ctx: PartnerContext,
  crewUniqueId: string,
  documentId: string,
): Promise<CrewDocument> {
  await requireCrewAccess(storeCrewAccess(db), ctx, crewUniqueId, 'documents');
  const doc = await findVisibleDocument(db, ctx, crewUniqueId, documentId);
  if (!doc) throw new AppError('document_not_found', `no document ${documentId} of crew member ${crewUniqueId} is available to you`);
  if (!doc.fileId) throw new AppError('document_not_found', `document ${documentId} has no file to download`);
  return doc;
}

/** What a file link token says; signed over document, crew, partner, key, mode and expiry. */
export interface FileLinkClaims {
  documentId: string;
  crewUniqueId: string;
  partnerId: string;
  keyId: string;
  mode: KeyMode;
  /** Unix seconds. */
  expiresAt: number;
}

export function signFileLink(key: Buffer, claims: FileLinkClaims): string {
  return signToken(key, {
    d: claims.documentId,
    c: claims.crewUniqueId,
    p: claims.partnerId,
    k: claims.keyId,
    m: claims.mode,
    e: claims.expiresAt,
  });
}

export interface DownloadLinkWire {
  document_id: string;
  download_url: string;
  expires_at: string;
  content_type: string;
  file_name: string;
}

/** A short-lived link to `GET /api/v2/files/{token}` (docs/decisions.md §5). */
export async function createDownloadLink(
  db: Db,
  ctx: PartnerContext,
  crewUniqueId: string,
  documentId: string,
  opts: { key: Buffer; now: Date; ttlSeconds: number; baseUrl: string },
): Promise<DownloadLinkWire> {
  const doc = await requireDownloadableDocument(db, ctx, crewUniqueId, documentId);
  const expiresAt = Math.floor(opts.now.getTime() / 1000) + opts.ttlSeconds;
  const token = signFileLink(opts.key, {
    documentId,
    crewUniqueId,
    partnerId: ctx.partner.partnerId,
    keyId: ctx.keyId,
    mode: ctx.mode,
    expiresAt,
  });
  return {
    document_id: doc.documentId,
    download_url: `${opts.baseUrl}/api/v2/files/${token}`,
    expires_at: wireTime(new Date(expiresAt * 1000)),
    content_type: doc.contentType ?? 'application/octet-stream',
    file_name: doc.fileName ?? `${doc.documentId}`,
  };
}
