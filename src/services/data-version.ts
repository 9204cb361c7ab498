import type { Db } from '../store/database.ts';
import { dialectOf } from '../store/dialect-of.ts';
import { changeHorizon } from '../store/repositories/changes-repo.ts';
import { changeMarks } from '../store/repositories/data-version-repo.ts';

/**
 * A version of everything change capture records (crew, documents, assignments, consents,
 * vessels, contract vessels, partners' scopes, the catalogue, webhook endpoints; migration
 * 0300-change-capture), or null when none can be given safely. It changes whenever one of those
 * tables does: it is the newest change's position, and pruning (by svc sync) saves the position
 * it pruned to in the same transaction, so the version never goes back.
 *
 * SQLite serializes writers, so the newest committed change is always the last one. On Postgres a
 * transaction may commit after a newer one did; the version is given only when every transaction
 * up to the newest change's has finished (the horizon is past it), so nothing older can still
 * appear. Otherwise null: the caller hashes the body instead. Read it before building the body.
 */
export async function dataVersion(db: Db): Promise<string | null> {
  const horizon = dialectOf(db) === 'postgres' ? await changeHorizon(db) : Number.MAX_SAFE_INTEGER;
  const marks = await changeMarks(db);
  let seq = marks.maxSeq;
  let tx = marks.maxTx;
  if (marks.syncCursor) {
    const position = (JSON.parse(marks.syncCursor) as { position?: { tx: number; seq: number } | null }).position;
    if (position) {
      seq = Math.max(seq, position.seq);
      tx = Math.max(tx, position.tx);
    }
  }
  if (horizon <= tx) return null;
  return `${tx}.${seq}`;
}
