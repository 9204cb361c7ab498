import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { addCounts, partnerShares, type DiffRound, type DiffShare, type EventCounts } from '../../domain/diff-round.ts';
import type { ChangePosition } from '../../domain/changes.ts';
import type { Db } from '../../store/database.ts';
import {
  claimDiffShare,
  closeDiffRound,
  finishDiffShare,
  holdDiffShare,
  listDiffShares,
  openDiffRound,
  releaseDiffShare,
} from '../../store/repositories/diff-shares-repo.ts';
import type { PassEnd, RunContext } from './crew-page.ts';
import { diffPartners, type PassOptions } from './passes.ts';
import type { DiffDeps, PartnerPlan } from './plan.ts';

/*
 * A diff split across processes by partner (docs/webhooks.md, "Several diff processes"). The run
 * holding the sync lease fixes the round (the changes it consumes, its date and instant) before it
 * reads any data, splits the partners into shares and opens the round in the store; it and any
 * `svc sync --diff-worker` processes claim shares one at a time (claimDiffShare, SKIP LOCKED on
 * Postgres) and diff each share's partners with the passes one process runs. Every transaction
 * a share commits first renews its claim and fails once the claim is lost, so a process whose claim
 * lapsed writes nothing more; a share whose process died is claimed again once its claim lapses,
 * and diffed again from the round's start: its pages already committed hold their snapshots, so
 * the pairs they wrote create nothing twice. The store-wide cursor moves, and the changes are
 * deleted, only when every share is done.
 */

/** A claim lapses after this long without a renewal (renewed with each page and every third of it). */
export const SHARE_CLAIM_MS = 60_000;
/** How often a process waiting on a round looks at it again. */
export const SHARE_POLL_MS = 250;
/** How long `svc sync --diff-worker` waits for a round to open before it exits with nothing to do. */
export const JOIN_WAIT_MS = 60_000;

/** How a process takes part in rounds. */
export interface ShareDeps {
  /** Names this process's claims: its run id. */
  holder: string;
  wallClock: () => Date;
  claimMs: number;
  pollMs: number;
}

export function shareDeps(deps: DiffDeps): ShareDeps {
  return {
    holder: deps.runId ?? `run_${randomBytes(6).toString('hex')}`,
    wallClock: deps.wallClock ?? (() => new Date()),
    claimMs: deps.shareClaimMs ?? SHARE_CLAIM_MS,
    pollMs: deps.sharePollMs ?? SHARE_POLL_MS,
  };
}

type Options = PassOptions & ShareDeps;

/** Thrown inside a share's transaction once its claim is lost: the transaction rolls back. */
class ShareLost extends Error {}

/** Waits `ms`, or less when `signal` aborts; true when it did. */
export async function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
  await sleep(ms, undefined, { signal }).catch(() => {});
  return signal?.aborted ?? false;
}

/**
 * Opens a round over `plans` in `shares` shares and diffs shares until every one is done, by this
 * process or another: 'done' then (the caller moves the cursor), or 'stopped' when asked to stop
 * (the round is closed, so the other processes stop at their next page) or when the round was
 * replaced meanwhile (by a run that took the sync lease over).
 */
export async function leadRound(
  run: RunContext,
  plans: readonly PartnerPlan[],
  round: { runId: string; from: ChangePosition | null; until: ChangePosition | null; full: string[]; shares: number },
  options: Options,
): Promise<PassEnd> {
  const opened: DiffRound = {
    roundId: `dr_${randomBytes(6).toString('hex')}`,
    runId: round.runId,
    at: run.at,
    today: run.today,
    windowDays: run.windowDays,
    from: round.from,
    until: round.until,
    full: round.full,
    claimMs: options.claimMs,
  };
  const split = partnerShares(
    plans.map((p) => ({ partnerId: p.partner.partnerId, vessels: p.vessels })),
    round.shares,
  );
  await run.db.transaction().execute((trx) => openDiffRound(trx, opened, split));
  const byId = new Map(plans.map((p) => [p.partner.partnerId, p]));
  const before = new Map(plans.map((p) => [p.partner.partnerId, { ...p.result.events }]));
  const close = () => run.db.transaction().execute((trx) => closeDiffRound(trx, opened.roundId));
  for (;;) {
    if ((await diffClaimedShares(run, opened, byId, options)) === 'stopped') {
      await close();
      return 'stopped';
    }
    const shares = await listDiffShares(run.db, opened.roundId);
    if (shares.length !== split.length) return 'stopped';
    if (shares.every((share) => share.done)) {
      countRound(byId, before, shares);
      await close();
      return 'done';
    }
    if (await pause(options.pollMs, run.signal)) {
      await close();
      return 'stopped';
    }
  }
}

/**
 * Sets each partner's events to those counted before the round and those its share's processes
 * committed (the row's result): this process's own, and those of a process that died or stopped
 * mid-share, whose pages' events were not created again.
 */
function countRound(
  plans: ReadonlyMap<string, PartnerPlan>,
  before: ReadonlyMap<string, EventCounts[string]>,
  shares: readonly DiffShare[],
): void {
  for (const share of shares) {
    for (const partnerId of share.partnerIds) {
      const plan = plans.get(partnerId);
      if (!plan) continue;
      const events = { ...before.get(partnerId) };
      addCounts(events, share.result[partnerId] ?? {});
      plan.result.events = events;
    }
  }
}

/**
 * Claims and diffs the round's shares one after the other while one can be claimed: 'done' when
 * none can (all done, or held by live claims), 'stopped' when asked to stop.
 */
export async function diffClaimedShares(
  run: RunContext,
  round: DiffRound,
  plans: ReadonlyMap<string, PartnerPlan>,
  options: Options,
  diffed: number[] = [],
): Promise<PassEnd> {
  for (;;) {
    if (run.signal?.aborted) return 'stopped';
    const now = options.wallClock();
    const share = await claimDiffShare(run.db, {
      roundId: round.roundId,
      holder: options.holder,
      now: now.toISOString(),
      until: new Date(now.getTime() + round.claimMs).toISOString(),
    });
    if (!share) return 'done';
    const end = await diffShare(run, round, share, plans, options);
    if (end === 'stopped') return 'stopped';
    if (end === 'done') diffed.push(share.share);
  }
}

/**
 * Diffs one claimed share's partners over the round's changes and dates, every transaction
 * holding the claim. 'lost' when the claim was lost on the way (nothing more was written);
 * 'stopped' when asked to stop (the claim is released for another process to take at once).
 */
async function diffShare(
  run: RunContext,
  round: DiffRound,
  share: DiffShare,
  plans: ReadonlyMap<string, PartnerPlan>,
  options: Options,
): Promise<'done' | 'stopped' | 'lost'> {
  const key = { roundId: round.roundId, share: share.share, holder: options.holder };
  const until = () => new Date(options.wallClock().getTime() + round.claimMs).toISOString();
  const hold = async (trx: Db, created?: EventCounts) => {
    if (!(await holdDiffShare(trx, { ...key, until: until(), created })))
      throw new ShareLost(`share ${share.share} of ${round.roundId} lost`);
  };
  const mine = share.partnerIds.flatMap((id) => plans.get(id) ?? []);
  const renew = setInterval(
    () => void holdDiffShare(run.db, { ...key, until: until() }).catch(() => {}),
    Math.max(1000, Math.floor(round.claimMs / 3)),
  );
  renew.unref();
  try {
    const full = mine.filter((plan) => round.full.includes(plan.partner.partnerId));
    const incremental = mine.filter((plan) => !full.includes(plan));
    const range = { from: round.from, until: round.until, changes: incremental.length > 0 };
    const { end } = await diffPartners({ ...run, share: { hold } }, full, incremental, range, options);
    if (end === 'stopped') {
      await releaseDiffShare(run.db, key);
      return 'stopped';
    }
  } catch (err) {
    if (err instanceof ShareLost) return 'lost';
    throw err;
  } finally {
    clearInterval(renew);
  }
  return (await finishDiffShare(run.db, key)) ? 'done' : 'lost';
}
