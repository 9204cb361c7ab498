import type { Database, Db } from '../database.ts';
import { idSet } from './id-set.ts';

type IdColumn = {
  employers: 'employer_id';
  partners: 'partner_id';
  vessels: 'vessel_id';
  crew: 'crew_unique_id';
  documents: 'document_id';
  files: 'file_id';
};

const ID_COLUMN: IdColumn = {
  employers: 'employer_id',
  partners: 'partner_id',
  vessels: 'vessel_id',
  crew: 'crew_unique_id',
  documents: 'document_id',
  files: 'file_id',
};

/** Which of `ids` already exist in a table (for reference checks before a load): one query, the ids bound as one parameter (idSet). */
export async function existingIds(db: Db, table: keyof IdColumn & keyof Database, ids: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  const column = ID_COLUMN[table];
  if (ids.length === 0) return found;
  const rows = await db.selectFrom(table).select(column).where(column, 'in', idSet(db, ids)).execute();
  // Kysely types the column over all six tables, where documents.file_id may be null; an id
  // column of its own table never is.
  for (const r of rows) found.add(r[column]!);
  return found;
}
