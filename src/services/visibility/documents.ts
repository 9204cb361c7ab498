import type { CrewDocument } from '../../domain/document.ts';
import type { Db } from '../../store/database.ts';
import { findListableDocument, listListableDocuments } from '../../store/repositories/documents-repo.ts';
import type { PartnerContext } from './partner-context.ts';

/** Medical-class documents are shown only with crew:medical:read (docs/contract.md, change of 2026-09-22). */
export function canSeeMedical(ctx: PartnerContext): boolean {
  return ctx.scopes.has('crew:medical:read');
}

/** The documents the documents endpoint lists for this partner (scope and consent checked by the caller). */
export function visibleDocuments(db: Db, ctx: PartnerContext, crewUniqueId: string): Promise<CrewDocument[]> {
  return listListableDocuments(db, [crewUniqueId], canSeeMedical(ctx));
}

/** One document the documents endpoint would list, or undefined (not listable, or medical without the scope). */
export function findVisibleDocument(
  db: Db,
  ctx: PartnerContext,
  crewUniqueId: string,
  documentId: string,
): Promise<CrewDocument | undefined> {
  return findListableDocument(db, crewUniqueId, documentId, canSeeMedical(ctx));
}

/** `YYYY-MM-DD` plus `days`, in UTC. */
export function addDaysUtc(date: string, days: number): string {
  const day = new Date(`${date}T00:00:00.000Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}
