import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Database, Db } from '../database.ts';
import { deleteUnusedFiles } from './files-repo.ts';
import { idSet } from './id-set.ts';

/*
 * The writes ingestion makes beyond upserts (docs/ingest.md, "Deletes and erasure"): catalogue
 * positions, deletes of one entity, and the erasure of a crew member.
 */

/** The catalogue position of each key: the stored one, or the next free ones in the order given. */
export async function catalogueOrder(db: Db, keys: readonly string[]): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('requirement_catalogue')
    .select(['requirement_key', 'position'])
    .where('requirement_key', 'in', idSet(db, keys))
    .execute();
  const out = new Map(rows.map((r) => [r.requirement_key, Number(r.position)]));
  const top = await db
    .selectFrom('requirement_catalogue')
    .select(sql<number | string | null>`max(position)`.as('p'))
    .executeTakeFirstOrThrow();
  let next = top.p === null ? 0 : Number(top.p) + 1;
  for (const k of keys) if (!out.has(k)) out.set(k, next++);
  return out;
}

/** What an erasure removed of a crew member's children, so their ingestion records can be forgotten too. */
export interface Erased {
  documentIds: string[];
  assignmentIds: string[];
  consentPartnerIds: string[];
}

/**
 * Erases a crew member: documents and their files (a file another row or a held change names stays),
 * assignments, consents, stored compliance results, sync snapshots, every outbox event about them
 * whatever its state (attempts and dead letters go with it), and the crew row with the photo; the
 * audit log keeps its rows, with the crew member's and their documents' ids taken out. One
 * transaction, given by the caller.
 */
export async function eraseCrew(trx: Db, crewUniqueId: string): Promise<Erased> {
  const crew = await trx.selectFrom('crew').select('photo_file_id').where('crew_unique_id', '=', crewUniqueId).executeTakeFirst();
  const documents = await trx
    .selectFrom('documents')
    .select(['document_id', 'file_id'])
    .where('crew_unique_id', '=', crewUniqueId)
    .execute();
  const assignments = await trx.selectFrom('assignments').select('assignment_id').where('crew_unique_id', '=', crewUniqueId).execute();
  const consents = await trx.selectFrom('consents').select('partner_id').distinct().where('crew_unique_id', '=', crewUniqueId).execute();
  const documentIds = documents.map((d) => d.document_id);
  await trx.deleteFrom('outbox_events').where('crew_unique_id', '=', crewUniqueId).execute();
  await trx.deleteFrom('sync_snapshots').where('crew_unique_id', '=', crewUniqueId).execute();
  await trx.deleteFrom('compliance_results').where('crew_unique_id', '=', crewUniqueId).execute();
  await trx.deleteFrom('documents').where('crew_unique_id', '=', crewUniqueId).execute();
  await trx.deleteFrom('assignments').where('crew_unique_id', '=', crewUniqueId).execute();
  await trx.deleteFrom('consents').where('crew_unique_id', '=', crewUniqueId).execute();
  await trx.deleteFrom('crew').where('crew_unique_id', '=', crewUniqueId).execute();
  await deleteUnusedFiles(trx, [
    ...documents.flatMap((d) => (d.file_id ? [d.file_id] : [])),
    ...(crew?.photo_file_id ? [crew.photo_file_id] : []),
  ]);
  await scrubAuditLog(trx, crewUniqueId, [crewUniqueId, ...documentIds]);
  return { documentIds, assignmentIds: assignments.map((a) => a.assignment_id), consentPartnerIds: consents.map((c) => c.partner_id) };
}

/** How many ids one scrub statement names (each adds a LIKE and a replace() to it). */
const AUDIT_IDS_A_STATEMENT = 100;

/**
 * Takes a crew member's id and `ids` (theirs, their documents') out of the audit log: rows
 * attributed to them, and rows of calls whose path named one of the ids without a route that
 * matched (a 404 on a mistyped path), lose their crew and document ids, and the ids in their path
 * become `[erased]`. A call that matched a route has its path's ids attributed (the 405 of a
 * route's path too: src/http/middleware/fallback.ts), so only unrouted paths are searched. Three
 * statements per 100 ids, each served by its index (migration 2000-audit-erasure-indexes): the log
 * is not read whole. The ids are replaced longest first across all of them, so that an id inside
 * another (doc_1 in doc_10) does not leave part of it, and a row keeps the ids it is found by until
 * the last statement of each kind, so that every id reaches its path. Ids hold no `%`; a `_`
 * matching any character only widens what replace() then finds nothing to change in.
 */
async function scrubAuditLog(trx: Db, crewUniqueId: string, ids: readonly string[]): Promise<void> {
  const longestFirst = [...ids].sort((a, b) => b.length - a.length);
  for (let at = 0; at < longestFirst.length; at += AUDIT_IDS_A_STATEMENT) {
    const named = longestFirst.slice(at, at + AUDIT_IDS_A_STATEMENT);
    const last = at + AUDIT_IDS_A_STATEMENT >= longestFirst.length;
    const scrub = (which: (eb: ExpressionBuilder<Database, 'audit_log'>) => Expression<SqlBool>) =>
      trx
        .updateTable('audit_log')
        .set((eb) => ({
          path: named.reduce<Expression<string>>((path, id) => eb.fn('replace', [path, eb.val(id), eb.val('[erased]')]), eb.ref('path')),
          ...(last ? { crew_unique_id: null, document_id: null } : {}),
        }))
        .where(which)
        .execute();
    await scrub((eb) => eb('crew_unique_id', '=', crewUniqueId));
    await scrub((eb) => eb('document_id', 'in', idSet(trx, ids)));
    await scrub((eb) => eb.and([eb('route', 'is', null), eb.or(named.map((id) => eb('path', 'like', `%${id}%`)))]));
  }
}

/** Deletes one document (its file too, unless another row uses it) and the stored compliance results it may have counted in. */
export async function deleteDocument(trx: Db, documentId: string): Promise<void> {
  const doc = await trx
    .selectFrom('documents')
    .select(['crew_unique_id', 'file_id'])
    .where('document_id', '=', documentId)
    .executeTakeFirst();
  if (!doc) return;
  await trx.deleteFrom('documents').where('document_id', '=', documentId).execute();
  await trx.deleteFrom('compliance_results').where('crew_unique_id', '=', doc.crew_unique_id).execute();
  if (doc.file_id) await deleteUnusedFiles(trx, [doc.file_id]);
}

export async function deleteAssignment(trx: Db, assignmentId: string): Promise<void> {
  await trx.deleteFrom('assignments').where('assignment_id', '=', assignmentId).execute();
}

export async function deleteConsent(trx: Db, crewUniqueId: string, partnerId: string): Promise<void> {
  await trx.deleteFrom('consents').where('crew_unique_id', '=', crewUniqueId).where('partner_id', '=', partnerId).execute();
}

export async function deleteRequirement(trx: Db, key: string): Promise<void> {
  await trx.deleteFrom('requirement_catalogue').where('requirement_key', '=', key).execute();
}

/** What still refers to an employer, a vessel or a partner, which must go first: a description per kind, empty when nothing does. */
export async function dependents(trx: Db, entity: 'employer' | 'vessel' | 'partner', id: string): Promise<string[]> {
  const count = async (q: { executeTakeFirstOrThrow(): Promise<{ n: string | number }> }) => Number((await q.executeTakeFirstOrThrow()).n);
  const n = sql<string | number>`count(*)`.as('n');
  const out: string[] = [];
  const note = (count: number, what: string) => count > 0 && out.push(`${count} ${what}`);
  if (entity === 'employer') {
    note(await count(trx.selectFrom('vessels').select(n).where('employer_id', '=', id)), 'vessel(s)');
    note(await count(trx.selectFrom('partners').select(n).where('employer_id', '=', id)), 'partner(s)');
  } else if (entity === 'vessel') {
    note(await count(trx.selectFrom('assignments').select(n).where('vessel_id', '=', id)), 'assignment(s)');
    note(await count(trx.selectFrom('contract_vessels').select(n).where('vessel_id', '=', id)), 'contract(s) of external partners');
  } else {
    note(
      await count(trx.selectFrom('api_keys').select(n).where('partner_id', '=', id).where('revoked_at', 'is', null)),
      'API key(s) not revoked',
    );
    note(await count(trx.selectFrom('webhook_endpoints').select(n).where('partner_id', '=', id)), 'webhook endpoint');
  }
  return out;
}

/** Deletes an employer, a vessel or a partner nothing depends on (a partner's consents and contracts go with it). */
export async function deleteParent(trx: Db, entity: 'employer' | 'vessel' | 'partner', id: string): Promise<void> {
  if (entity === 'employer') await trx.deleteFrom('employers').where('employer_id', '=', id).execute();
  else if (entity === 'vessel') await trx.deleteFrom('vessels').where('vessel_id', '=', id).execute();
  else await trx.deleteFrom('partners').where('partner_id', '=', id).execute();
}
