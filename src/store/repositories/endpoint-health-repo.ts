import type { Db } from '../database.ts';

/** One partner's attempts stored in one transaction, in the order they were made. */
export interface AttemptsOfEndpoint {
  partnerId: string;
  attempts: readonly { at: string; delivered: boolean }[];
}

/**
 * Folds attempts into the endpoint's health in one statement, relative to the stored row so that
 * transactions recording the same endpoint at once (Postgres) add up instead of overwriting each
 * other: failures after the last delivered attempt count on from it, or from the stored count.
 * A disabled endpoint's health stays as it was when it was disabled (attempts in flight then are
 * stored with their events, not counted), so its reason and counter agree; re-enabling resets it.
 */
export async function noteEndpointAttempts(db: Db, { partnerId, attempts }: AttemptsOfEndpoint): Promise<void> {
  const lastSuccess = attempts.findLastIndex((a) => a.delivered);
  const failures = attempts.slice(lastSuccess + 1);
  const update = db.updateTable('webhook_endpoints').where('partner_id', '=', partnerId).where('status', '=', 'active');
  if (lastSuccess < 0) {
    await update
      .set((eb) => ({
        consecutive_failures: eb('consecutive_failures', '+', failures.length),
        failing_since: eb.fn.coalesce('failing_since', eb.val(failures[0]!.at)),
      }))
      .execute();
    return;
  }
  const at = attempts[lastSuccess]!.at;
  await update
    .set((eb) => ({
      consecutive_failures: failures.length,
      failing_since: failures[0]?.at ?? null,
      last_success_at: eb
        .case()
        .when(eb.or([eb('last_success_at', 'is', null), eb('last_success_at', '<', at)]))
        .then(at)
        .else(eb.ref('last_success_at'))
        .end(),
    }))
    .execute();
}

/**
 * Disables the partner's endpoint when it is active and has failed every attempt since at or before
 * `failingBefore`, with the reason and time; true when this call disabled it.
 */
export async function disableIfFailingSince(db: Db, partnerId: string, failingBefore: string, at: string, days: number): Promise<boolean> {
  // The disabling update returns the row as it wrote it (a concurrent recorder's update is waited
  // for, then seen), and the reason is written from that row while this transaction holds it.
  const row = await db
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_at: at, updated_at: at })
    .where('partner_id', '=', partnerId)
    .where('status', '=', 'active')
    .where('failing_since', '<=', failingBefore)
    .returning(['failing_since', 'consecutive_failures'])
    .executeTakeFirst();
  if (!row) return false;
  const reason = `every delivery attempt failed for ${days} days (${row.consecutive_failures} in a row since ${row.failing_since})`;
  await db.updateTable('webhook_endpoints').set({ disabled_reason: reason }).where('partner_id', '=', partnerId).execute();
  return true;
}

/** Disables the partner's endpoint, when active, with the reason and time; true when this call disabled it. */
export async function disableEndpoint(db: Db, partnerId: string, reason: string, at: string): Promise<boolean> {
  const res = await db
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_reason: reason, disabled_at: at, updated_at: at })
    .where('partner_id', '=', partnerId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return res.numUpdatedRows === 1n;
}
