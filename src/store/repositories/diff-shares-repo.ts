import type { ExpressionBuilder, Selectable } from 'kysely';
import { addCounts, type DiffRound, type DiffShare, type EventCounts } from '../../domain/diff-round.ts';
import type { Database, Db, DiffSharesTable } from '../database.ts';
import { dialectOf } from '../dialect-of.ts';
import { findSetting, putSetting } from './settings-repo.ts';

const ROUND = 'sync.diff_round';

function toShare(row: Selectable<DiffSharesTable>): DiffShare {
  return {
    roundId: row.round_id,
    share: Number(row.share),
    partnerIds: JSON.parse(row.partner_ids) as string[],
    done: Number(row.done) === 1,
    holder: row.claimed_by,
    result: row.result ? (JSON.parse(row.result) as EventCounts) : {},
  };
}

/** Opens `round` with its shares, replacing any round left open (a run that stopped or died): its claims go with it. */
export async function openDiffRound(db: Db, round: DiffRound, shares: readonly string[][]): Promise<void> {
  await db.deleteFrom('diff_shares').execute();
  await putSetting(db, ROUND, JSON.stringify(round));
  await db
    .insertInto('diff_shares')
    .values(shares.map((partnerIds, share) => ({ round_id: round.roundId, share, partner_ids: JSON.stringify(partnerIds), done: 0 })))
    .execute();
}

/** The round open now, if any. */
export async function findDiffRound(db: Db): Promise<DiffRound | undefined> {
  const value = await findSetting(db, ROUND);
  return value ? (JSON.parse(value) as DiffRound) : undefined;
}

/** Ends the round, if it is still the one open: its shares and its row go. Call it in a transaction. */
export async function closeDiffRound(trx: Db, roundId: string): Promise<void> {
  await trx.deleteFrom('diff_shares').where('round_id', '=', roundId).execute();
  if ((await findDiffRound(trx))?.roundId === roundId) await trx.deleteFrom('settings').where('name', '=', ROUND).execute();
}

/** Gives up `holder`'s claim on a share not done (a process stopped mid-share), so another may take it at once. */
export async function releaseDiffShare(db: Db, release: ShareHolder): Promise<void> {
  await db.updateTable('diff_shares').set({ claimed_by: null, claimed_until: null }).where(heldBy(release)).execute();
}

/**
 * Claims one share of the round for `holder` until `until`, in one statement: one not done whose
 * claim is free or ended before `now`, lowest number first. On Postgres it is picked with `FOR
 * UPDATE SKIP LOCKED`, as delivery claims events (outbox-repo.ts claimDueEvents), so processes
 * claiming at once take different shares without waiting; SQLite has one writer at a time.
 */
export async function claimDiffShare(
  db: Db,
  claim: { roundId: string; holder: string; now: string; until: string },
): Promise<DiffShare | undefined> {
  const free = (eb: ExpressionBuilder<Database, 'diff_shares'>) =>
    eb.and([
      eb('round_id', '=', claim.roundId),
      eb('done', '=', 0),
      eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', claim.now)]),
    ]);
  let pick = db.selectFrom('diff_shares').select('share').where(free).orderBy('share').limit(1);
  if (dialectOf(db) === 'postgres') pick = pick.forUpdate().skipLocked();
  const row = await db
    .with(
      (cte) => cte('picked').materialized(),
      () => pick,
    )
    .updateTable('diff_shares')
    .set({ claimed_by: claim.holder, claimed_until: claim.until })
    .where(free)
    .where('share', 'in', (eb) => eb.selectFrom('picked').select('picked.share'))
    .returningAll()
    .executeTakeFirst();
  return row && toShare(row);
}

/** Which share, and the process that must hold it. */
interface ShareHolder {
  roundId: string;
  share: number;
  holder: string;
}

/** The share, while `holder` holds it and it is not done. */
const heldBy = (key: ShareHolder) => (eb: ExpressionBuilder<Database, 'diff_shares'>) =>
  eb.and([eb('round_id', '=', key.roundId), eb('share', '=', key.share), eb('claimed_by', '=', key.holder), eb('done', '=', 0)]);

/**
 * Renews `holder`'s claim on a share until `until`; false when the claim was lost (it lapsed and
 * another process took the share, or the round was replaced). Called first in each transaction
 * the share's diff commits, it holds the share's row until that commit: a process whose claim was
 * taken over writes nothing more. `created`, the events the transaction writes (per partner and
 * event type), are added to the share's `result`, so the count holds what every process that held
 * the share committed, one that died or stopped mid-share included.
 */
export async function holdDiffShare(db: Db, hold: ShareHolder & { until: string; created?: EventCounts }): Promise<boolean> {
  const res = await db.updateTable('diff_shares').set({ claimed_until: hold.until }).where(heldBy(hold)).executeTakeFirst();
  if (res.numUpdatedRows !== 1n) return false;
  if (hold.created) {
    const row = await db.selectFrom('diff_shares').select('result').where(heldBy(hold)).executeTakeFirstOrThrow();
    const result = row.result ? (JSON.parse(row.result) as EventCounts) : {};
    for (const [partnerId, events] of Object.entries(hold.created)) addCounts((result[partnerId] ??= {}), events);
    await db
      .updateTable('diff_shares')
      .set({ result: JSON.stringify(result) })
      .where(heldBy(hold))
      .execute();
  }
  return true;
}

/** Marks a share done by `holder`; false when the claim was lost. */
export async function finishDiffShare(db: Db, finish: ShareHolder): Promise<boolean> {
  const res = await db.updateTable('diff_shares').set({ done: 1, claimed_until: null }).where(heldBy(finish)).executeTakeFirst();
  return res.numUpdatedRows === 1n;
}

/** The round's shares, in share order. */
export async function listDiffShares(db: Db, roundId: string): Promise<DiffShare[]> {
  const rows = await db.selectFrom('diff_shares').selectAll().where('round_id', '=', roundId).orderBy('share').execute();
  return rows.map(toShare);
}
