import { AppError } from '../../domain/app-error.ts';
import { DOCUMENT_DOWNLOAD_SCOPES, effectiveScopes } from '../../domain/scopes.ts';
import type { Db } from '../../store/database.ts';
import { findApiKey } from '../../store/repositories/api-keys-repo.ts';
import { openStoredFile, type StoredFile } from '../files/stored-files.ts';
import { findPartner } from '../../store/repositories/partners-repo.ts';
import { requireScopes } from '../visibility/access.ts';
import type { PartnerContext } from '../visibility/partner-context.ts';
import { requireDownloadableDocument, type FileLinkClaims } from './documents.ts';
import { verifyToken } from './signed-token.ts';

/** A file ready to send. */
export interface FileDownload {
  claims: FileLinkClaims;
  fileName: string;
  file: StoredFile;
}

function linkNotFound(): AppError {
  return new AppError('not_found', 'this download link is not valid');
}

function readClaims(key: Buffer, token: string): FileLinkClaims {
  const payload = verifyToken(key, token);
  if (!payload) throw linkNotFound();
  const { d: documentId, c: crewUniqueId, p: partnerId, k: keyId, m: mode, e: expiresAt } = payload;
  if (
    typeof documentId !== 'string' ||
    typeof crewUniqueId !== 'string' ||
    typeof partnerId !== 'string' ||
    typeof keyId !== 'string' ||
    (mode !== 'live' && mode !== 'test') ||
    typeof expiresAt !== 'number'
  )
    throw linkNotFound();
  return { documentId, crewUniqueId, partnerId, keyId, mode, expiresAt };
}

/**
 * Resolves `GET /api/v2/files/{token}`: a tampered token is 404 not_found, an expired one 410
 * link_expired. Then everything the download endpoint checked is checked again, now: the key that
 * asked is still active, the scope is still granted, the crew member is still on the fleet and
 * consenting, the document is still listable (medical still allowed).
 * `onClaims` receives the verified claims at once, so a refused call is still audited with them.
 */
export async function openFileLink(
  db: Db,
  key: Buffer,
  token: string,
  now: Date,
  onClaims: (c: FileLinkClaims) => void = () => {},
): Promise<FileDownload> {
  const claims = readClaims(key, token);
  onClaims(claims);
  if (claims.expiresAt * 1000 <= now.getTime()) {
    throw new AppError('link_expired', 'this download link has expired; ask the download endpoint for a new one');
  }
  const apiKey = await findApiKey(db, claims.keyId);
  const partner = await findPartner(db, claims.partnerId);
  if (!partner || !apiKey || apiKey.status !== 'active' || apiKey.partnerId !== partner.partnerId) throw linkNotFound();
  const ctx: PartnerContext = { partner, mode: claims.mode, keyId: claims.keyId, scopes: new Set(effectiveScopes(partner)) };
  requireScopes(ctx, DOCUMENT_DOWNLOAD_SCOPES);
  const doc = await requireDownloadableDocument(db, ctx, claims.crewUniqueId, claims.documentId);
  const file = await openStoredFile(db, doc.fileId!);
  if (!file) throw new AppError('document_not_found', `the file of document ${doc.documentId} is not stored`);
  return { claims, fileName: doc.fileName ?? doc.documentId, file };
}
