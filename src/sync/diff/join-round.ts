import type { DiffRound } from '../../domain/diff-round.ts';
import type { Db } from '../../store/database.ts';
import { findDiffRound } from '../../store/repositories/diff-shares-repo.ts';
import { findLease } from '../../store/repositories/leases-repo.ts';
import { SYNC_LEASE } from '../sync-lease.ts';
import type { RunContext } from './crew-page.ts';
import { planPartners, type DiffDeps, type PartnerDiffResult } from './plan.ts';
import { newEventId } from './run-diff.ts';
import { diffClaimedShares, JOIN_WAIT_MS, pause, shareDeps } from './shares.ts';

/** What a diff worker did: the round it joined (null: none opened while it waited), the shares it finished, its events per partner. */
export interface JoinedRound {
  roundId: string | null;
  shares: number[];
  results: PartnerDiffResult[];
  stopped: boolean;
}

/** Whether the run that opened `round` still holds the sync lease: a round its run left is not joined. */
async function led(db: Db, round: DiffRound, now: Date): Promise<boolean> {
  const lease = await findLease(db, SYNC_LEASE);
  return lease !== undefined && lease.holder.startsWith(`${round.runId} `) && lease.expiresAt > now.toISOString();
}

/**
 * `svc sync --diff-worker`: waits (up to `deps.joinWaitMs` of real time) for a `svc sync
 * --diff-processes N` run to open a round, then claims and diffs its shares while any can be
 * claimed, with the round's date and instant (src/sync/diff/shares.ts). It moves no cursor and
 * delivers nothing: the run that opened the round does both.
 */
export async function joinDiffRound(db: Db, deps: DiffDeps): Promise<JoinedRound> {
  const options = { ...shareDeps(deps), pageSize: deps.pageSize ?? 500, changeChunk: deps.changeChunk ?? 2000 };
  const deadline = options.wallClock().getTime() + (deps.joinWaitMs ?? JOIN_WAIT_MS);
  let round: DiffRound | undefined;
  for (;;) {
    round = await findDiffRound(db);
    if (round && (await led(db, round, deps.clock()))) break;
    if (options.wallClock().getTime() >= deadline || (await pause(options.pollMs, deps.signal))) {
      return { roundId: null, shares: [], results: [], stopped: deps.signal?.aborted ?? false };
    }
  }
  const { plans, vessels } = await planPartners(db, false);
  const run: RunContext = {
    db,
    at: round.at,
    today: round.today,
    windowDays: round.windowDays,
    catalogue: (await deps.catalogue.get(db)).definitions,
    vessels,
    vesselIds: [...vessels.keys()],
    newId: deps.newEventId ?? newEventId,
    dryRun: false,
    signal: deps.signal,
    phases: deps.phases,
    spans: deps.spans,
  };
  const shares: number[] = [];
  const progress = { planned: () => {}, done: () => {} };
  const end = await diffClaimedShares(run, round, new Map(plans.map((p) => [p.partner.partnerId, p])), { ...options, progress }, shares);
  const mine = new Set(plans.filter((p) => Object.keys(p.result.events).length > 0).map((p) => p.partner.partnerId));
  return {
    roundId: round.roundId,
    shares,
    results: plans.filter((p) => mine.has(p.partner.partnerId)).map((p) => p.result),
    stopped: end === 'stopped',
  };
}
