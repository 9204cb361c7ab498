import { sql, type Selectable } from 'kysely';
import type { Classification } from '../../domain/classification.ts';
import type { EvaluationDocument } from '../../domain/compliance/types.ts';
import type { CrewDocument } from '../../domain/document.ts';
import type { Db, DocumentsTable } from '../database.ts';
import { dialectOf } from '../dialect-of.ts';
import { idSet } from './id-set.ts';

const CONTENT_TYPE_BY_EXT: Record<string, string> = { pdf: 'application/pdf', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png' };

const parseClassification = (text: string) => JSON.parse(text) as Classification;

export function toCrewDocument(row: Selectable<DocumentsTable>): CrewDocument {
  const ext = row.file_name?.split('.').pop()?.toLowerCase() ?? '';
  return {
    documentId: row.document_id,
    crewUniqueId: row.crew_unique_id,
    type: row.type,
    category: row.category,
    title: row.title,
    issuer: row.issuer,
    verificationStatus: row.verification_status,
    reviewStatus: row.review_status,
    issueDate: row.issue_date,
    expiryDate: row.expiry_date,
    noExpiry: row.no_expiry === 1,
    documentNumber: row.document_number,
    processingState: row.processing_state,
    isCurrent: row.is_current === 1,
    isLive: row.is_live === 1,
    supersededBy: row.superseded_by,
    documentClass: row.document_class,
    classification: parseClassification(row.classification),
    fileId: row.file_id,
    fileName: row.file_name,
    contentType: row.file_id ? (CONTENT_TYPE_BY_EXT[ext] ?? 'application/octet-stream') : null,
    processedAt: row.processed_at,
    updatedAt: row.updated_at,
  };
}

function listable(db: Db) {
  return db
    .selectFrom('documents')
    .selectAll()
    .where('processing_state', '=', 'processed')
    .where('is_current', '=', 1)
    .where('is_live', '=', 1);
}

/**
 * Listable documents (processed, current, live) of each crew member, ordered by crew then
 * document id; medical-class documents only when `includeMedical`.
 */
export async function listListableDocuments(db: Db, crewIds: readonly string[], includeMedical: boolean): Promise<CrewDocument[]> {
  const out: CrewDocument[] = [];
  for (let i = 0; i < crewIds.length; i += 2000) {
    let query = listable(db).where('crew_unique_id', 'in', crewIds.slice(i, i + 2000));
    if (!includeMedical) query = query.where('document_class', '!=', 'medical');
    const rows = await query.orderBy('crew_unique_id').orderBy('document_id').execute();
    for (const r of rows) out.push(toCrewDocument(r));
  }
  return out;
}

const EVALUATION_COLUMNS = [
  'document_id',
  'crew_unique_id',
  'title',
  'verification_status',
  'review_status',
  'issue_date',
  'expiry_date',
  'no_expiry',
  'processing_state',
  'is_current',
  'is_live',
  'document_class',
  'classification',
] as const;

/**
 * A document's EVALUATION_COLUMNS values, in that order: from SQLite with the classification as
 * the JSON value it is stored as, from a Postgres row with it as that text.
 */
type EvaluationValues<C> = [...DocumentValues, C];

/** The values of EVALUATION_COLUMNS but the classification, in that order. */
type DocumentValues = [
  string,
  string,
  string,
  DocumentsTable['verification_status'],
  DocumentsTable['review_status'],
  string | null,
  string | null,
  number,
  DocumentsTable['processing_state'],
  number,
  number,
  DocumentsTable['document_class'],
];

function toEvaluationDocument(v: readonly [...DocumentValues, ...unknown[]], classification: Classification): EvaluationDocument {
  return {
    documentId: v[0],
    crewUniqueId: v[1],
    title: v[2],
    verificationStatus: v[3],
    reviewStatus: v[4],
    issueDate: v[5],
    expiryDate: v[6],
    noExpiry: v[7] === 1,
    processingState: v[8],
    isCurrent: v[9] === 1,
    isLive: v[10] === 1,
    documentClass: v[11],
    classification,
  };
}

/** Crew whose documents one statement reads at most. */
const CREW_PER_STATEMENT = 2000;

/**
 * The evaluation documents of a chunk of crew. On SQLite the store hands them over as one JSON
 * array of arrays, parsed by one JSON.parse: node-sqlite3 builds a JS object per row column by
 * column, which costs more CPU than one JSON.parse of the same values (docs/performance.md,
 * "Documents for the evaluation as one JSON value on SQLite"). Each array ends with the document's stored classification JSON written
 * in as it is, not quoted as a string to be parsed a second time: a quarter less CPU for 2,000
 * crew. That trusts the column to hold one JSON value, which the store alone writes, with
 * JSON.stringify (src/services/fixtures/to-rows.ts, src/services/generate/documents.ts); it is
 * the last of the 13, and json_array's last value (document_class, a text) never ends with `]`.
 * On Postgres, whose client parses rows itself, building the JSON on the server took twice the
 * time, so rows are read as they are.
 */
async function evaluationDocuments(db: Db, crewIds: readonly string[]): Promise<EvaluationDocument[]> {
  const query = listable(db).clearSelect().where('crew_unique_id', 'in', crewIds);
  if (dialectOf(db) === 'sqlite') {
    const values = sql.join(EVALUATION_COLUMNS.slice(0, -1).map((c) => sql.ref(c)));
    const withClassification = sql`rtrim(json_array(${values}), ']') || ',' || ${sql.ref('classification')} || ']'`;
    const documents = sql<string>`'[' || coalesce(group_concat(${withClassification}, ','), '') || ']'`;
    const row = await query.select(documents.as('documents')).executeTakeFirstOrThrow();
    return (JSON.parse(row.documents) as EvaluationValues<Classification>[]).map((v) => toEvaluationDocument(v, v[12]));
  }
  const rows = await query.select(EVALUATION_COLUMNS).execute();
  return rows.map((r) => {
    const v = EVALUATION_COLUMNS.map((c) => r[c]) as EvaluationValues<string>;
    return toEvaluationDocument(v, parseClassification(v[12]));
  });
}

/**
 * What the evaluator reads of the listable documents (medical ones included) of the crew asked
 * for: 13 of the 22 columns, which on SQLite takes about 40% less CPU to read than every column
 * (docs/performance.md). In no particular order: the evaluation does not depend on it (a property
 * in test/compliance/properties.test.ts), and sorting cost SQLite a temporary B-tree per
 * statement. The same documents as listListableDocuments with medical ones
 * (test/store/evaluation-documents.test.ts).
 */
export async function listEvaluationDocuments(db: Db, crewIds: readonly string[]): Promise<EvaluationDocument[]> {
  const out: EvaluationDocument[] = [];
  for (let start = 0; start < crewIds.length; start += CREW_PER_STATEMENT) {
    for (const document of await evaluationDocuments(db, crewIds.slice(start, start + CREW_PER_STATEMENT))) out.push(document);
  }
  return out;
}

/** An evaluation document and its stored file, if any (the compliance check's download links). */
export type EvaluationDocumentWithFile = EvaluationDocument & { fileId: string | null };

/** EVALUATION_COLUMNS but the classification, then file_id: the columns of crewEvaluationDocuments. */
const CHECK_COLUMNS = sql.raw([...EVALUATION_COLUMNS.slice(0, -1), 'file_id'].join(', '));
/** The conditions of `listable`, as SQL. */
const LISTABLE = sql.raw(`processing_state = 'processed' and is_current = 1 and is_live = 1`);

/**
 * The listable documents of one crew member, medical ones included, as the evaluator reads them
 * and with their file ids, as one JSON value from a scalar subquery, so that the compliance check
 * reads them in the statement that reads the crew member's fleet and consents
 * (crewCheckOnFleet, ./crew-on-fleet-repo.ts). Each document an array of CHECK_COLUMNS, its stored
 * classification JSON written in last as it is, not quoted as a string to be parsed a second time
 * (on SQLite, file_id, a text or null, comes before it, so json_array's last value never ends with
 * `]`; the column holds one JSON value, which the store alone writes, see evaluationDocuments). In
 * no particular order. Read with evaluationDocumentsOf.
 */
export function crewEvaluationDocumentsValue(db: Db, crewUniqueId: string) {
  if (dialectOf(db) === 'sqlite') {
    return sql<string>`(select '[' || coalesce(group_concat(rtrim(json_array(${CHECK_COLUMNS}), ']') || ',' || classification || ']', ','), '') || ']'
      from documents where crew_unique_id = ${crewUniqueId} and ${LISTABLE})`;
  }
  return sql<unknown[]>`(select coalesce(json_agg(json_build_array(${CHECK_COLUMNS}, classification::json)), '[]'::json)
      from documents where crew_unique_id = ${crewUniqueId} and ${LISTABLE})`;
}

/** A crewEvaluationDocumentsValue as read: text on SQLite, parsed by pg on Postgres. */
export type EvaluationDocumentsValue = string | unknown[];

/** The documents of a crewEvaluationDocumentsValue. */
export function evaluationDocumentsOf(value: EvaluationDocumentsValue): EvaluationDocumentWithFile[] {
  const documents = (typeof value === 'string' ? JSON.parse(value) : value) as [...DocumentValues, string | null, Classification][];
  return documents.map((v) => ({ ...toEvaluationDocument(v, v[13]), fileId: v[12] }));
}

/**
 * The listable documents of one crew member, medical ones included, as the evaluator reads them
 * and with their file ids: crewEvaluationDocumentsValue on its own. The same documents as
 * listListableDocuments (test/store/evaluation-documents.test.ts).
 */
export async function crewEvaluationDocuments(db: Db, crewUniqueId: string): Promise<EvaluationDocumentWithFile[]> {
  const { rows } = await sql<{
    documents: EvaluationDocumentsValue;
  }>`select ${crewEvaluationDocumentsValue(db, crewUniqueId)} as documents`.execute(db);
  return evaluationDocumentsOf(rows[0]!.documents);
}

export async function findListableDocument(
  db: Db,
  crewUniqueId: string,
  documentId: string,
  includeMedical: boolean,
): Promise<CrewDocument | undefined> {
  let query = listable(db).where('crew_unique_id', '=', crewUniqueId).where('document_id', '=', documentId);
  if (!includeMedical) query = query.where('document_class', '!=', 'medical');
  const row = await query.executeTakeFirst();
  return row && toCrewDocument(row);
}

/** Which of the documents have a stored file (for download links). */
export async function documentIdsWithFiles(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('documents')
    .select('document_id')
    .where('document_id', 'in', idSet(db, ids))
    .where('file_id', 'is not', null)
    .execute();
  return new Set(rows.map((r) => r.document_id));
}

/** Documents by id regardless of state: to tell a replaced document from a withdrawn one. */
export async function documentsByIds(db: Db, ids: readonly string[]): Promise<CrewDocument[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('documents').selectAll().where('document_id', 'in', idSet(db, ids)).execute()).map(toCrewDocument);
}
