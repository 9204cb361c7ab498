import type { Db } from '../store/database.ts';
import { changeMarks, type ChangeMarks } from '../store/repositories/data-version-repo.ts';
import { changesInRange } from '../store/repositories/changes-repo.ts';
import type { Change, ChangePosition } from '../domain/changes.ts';

/**
 * A version of everything change capture records (crew, documents, assignments, consents,
 * vessels, contract vessels, partners' scopes, the catalogue, webhook endpoints; migration
 * 0300-change-capture), or null when none can be given safely. It changes whenever one of those
 * tables does: it is the newest change's position, and pruning (by svc sync) saves the position
 * it pruned to in the same transaction, so the version never goes back.
 *
 * SQLite serializes writers, so the newest committed change is always the last one. On Postgres a
 * transaction may commit after a newer one did; the version is given only when every transaction
 * up to the newest change's has finished (the horizon, read with the marks, is past it), so
 * nothing older can still appear. Otherwise null: the caller hashes the body instead. Read it
 * before building the body.
 */
export async function dataVersion(db: Db): Promise<string | null> {
  return versionOf(await changeMarks(db));
}

/** The data version the marks give (dataVersion), or null. */
export function versionOf(marks: ChangeMarks): string | null {
  let seq = marks.maxSeq;
  let tx = marks.maxTx;
  if (marks.syncCursor) {
    const position = (JSON.parse(marks.syncCursor) as { position?: { tx: number; seq: number } | null }).position;
    if (position) {
      seq = Math.max(seq, position.seq);
      tx = Math.max(tx, position.tx);
    }
  }
  if (marks.horizon <= tx) return null;
  return `${tx}.${seq}`;
}

const positionOf = (version: string): ChangePosition => {
  const [tx, seq] = version.split('.').map(Number) as [number, number];
  return { tx, seq };
};

/**
 * The changes captured after version `from` up to version `to` (both given by dataVersion, `from`
 * the older), or null when they cannot all be known: sync pruned the log past `from`, or there are
 * more than `limit` of them. Every change up to `to` is final when `to` was given, so none can still
 * appear below it. The prune mark is read after the changes: a prune committed before that read
 * shows in it.
 */
export async function changesBetween(db: Db, from: string, to: string, limit: number): Promise<Change[] | null> {
  const start = positionOf(from);
  const end = positionOf(to);
  const changes = await changesInRange(db, start, end, limit + 1);
  const cursor = (await changeMarks(db)).syncCursor;
  const pruned = cursor ? (JSON.parse(cursor) as { position?: ChangePosition | null }).position : null;
  if (pruned && (pruned.tx > start.tx || (pruned.tx === start.tx && pruned.seq > start.seq))) return null;
  return changes.length > limit ? null : changes;
}

/** Orders two versions given by dataVersion: negative when `a` is older than `b`. */
export function compareDataVersions(a: string, b: string): number {
  const [ta, sa] = a.split('.').map(Number) as [number, number];
  const [tb, sb] = b.split('.').map(Number) as [number, number];
  return ta !== tb ? ta - tb : sa - sb;
}
