import { AppError } from '../domain/app-error.ts';
import { wireTime, type Clock } from '../domain/clock.ts';
import type { Db } from '../store/database.ts';
import { releaseSendSlotsOf } from '../store/repositories/endpoint-slots-repo.ts';
import { acquireLease, findLease, releaseLease, renewLease, type Lease } from '../store/repositories/leases-repo.ts';
import { releaseClaimsOf } from '../store/repositories/outbox-repo.ts';
import { endAbandonedSyncRun } from '../store/repositories/sync-runs-repo.ts';

export const SYNC_LEASE = 'sync';
/** A run renews its lease well before this; a crashed run's lease frees itself after it. */
export const SYNC_LEASE_MS = 10 * 60_000;

/** A held sync lease, renewed in the background until released. */
export interface HeldLease {
  holder: string;
  release(): Promise<void>;
}

/** The process that takes the lease, written into its holder name so an operator can tell whether it still runs. */
export interface LeaseOwner {
  pid: number;
  host: string;
}

/** `run_ab12 pid 4242 on host-1`: the run, then the process holding the lease. */
export function holderName(runId: string, owner: LeaseOwner): string {
  return `${runId} pid ${owner.pid} on ${owner.host}`;
}

function parseHolder(holder: string): LeaseOwner | undefined {
  const match = /^\S+ pid (\d+) on (\S+)$/.exec(holder);
  return match ? { pid: Number(match[1]), host: match[2]! } : undefined;
}

const at = (clock: Clock, plusMs: number) => new Date(clock().getTime() + plusMs).toISOString();

function lockedMessage(current: Lease | undefined): string {
  return (
    `another sync run is in progress (${current?.holder ?? 'unknown'}), lease held until ${current ? wireTime(current.expiresAt) : '?'}; ` +
    'this run exits without doing anything. The lease lapses by itself then, and a holder gone from this machine is taken over ' +
    'by the next run; if its holder is gone from another machine, clear it now with `svc admin release-sync-lock` (--force)'
  );
}

/**
 * How a run tells whether the holder of a lease is gone: this machine's host name, and whether a
 * process of it runs; and the real time, at which the gone run is recorded as ended (sync_runs).
 */
export interface HolderCheck {
  host: string;
  isAlive: (pid: number) => boolean;
  wallClock: Clock;
}

/** Whether `lease`'s holder ran on this machine and its process is gone (killed, or it died with its store). */
function holderGone(lease: Lease, check: HolderCheck): boolean {
  const owner = parseHolder(lease.holder);
  return owner !== undefined && owner.host === check.host && !check.isAlive(owner.pid);
}

/**
 * Takes the store-wide sync lease for `holder`, or throws sync_locked (exit code 75) naming the
 * run that holds it, until when, and how to clear it. With `takeOver`, a lease whose holder is gone
 * from this machine (a run ended by a store outage or SIGKILL before it could release it) is taken
 * over without an operator: its claims are released first, so this run sends those events with
 * their event ids. The lease is renewed every third of its length while the run goes on.
 */
export async function acquireSyncLease(
  db: Db,
  holder: string,
  clock: Clock,
  leaseMs = SYNC_LEASE_MS,
  takeOver?: HolderCheck,
): Promise<HeldLease> {
  let acquired = await acquireLease(db, SYNC_LEASE, holder, clock().toISOString(), at(clock, leaseMs));
  if (!acquired && takeOver) {
    const current = await findLease(db, SYNC_LEASE);
    if (current && holderGone(current, takeOver)) {
      await clearGoneRun(db, current.holder, takeOver.wallClock().toISOString());
      acquired = await acquireLease(db, SYNC_LEASE, holder, clock().toISOString(), at(clock, leaseMs));
    }
  }
  if (!acquired) throw new AppError('sync_locked', lockedMessage(await findLease(db, SYNC_LEASE)));
  const timer = setInterval(
    () => {
      renewLease(db, SYNC_LEASE, holder, at(clock, leaseMs)).catch(() => {});
    },
    Math.max(1000, Math.floor(leaseMs / 3)),
  );
  timer.unref();
  return {
    holder,
    release: async () => {
      clearInterval(timer);
      await releaseLease(db, SYNC_LEASE, holder);
    },
  };
}

/** The run id at the start of a holder name: what its outbox claims are held under. */
const runOf = (holder: string): string => holder.split(' ')[0]!;

/**
 * Clears what the run behind a lease's `holder` left when it went away: the lease (only that
 * holder's), its outbox claims and its endpoints' request slots, and records the run ended with
 * outcome `error` at `noticedAt` (real time). Returns how many claims it released.
 */
async function clearGoneRun(db: Db, holder: string, noticedAt: string): Promise<number> {
  const runId = runOf(holder);
  await releaseLease(db, SYNC_LEASE, holder);
  const claims = await releaseClaimsOf(db, runId);
  await releaseSendSlotsOf(db, runId);
  await endAbandonedSyncRun(db, runId, noticedAt);
  return claims;
}

/** Why release-sync-lock cleared the lease, or that there was none. */
export type LockRelease =
  { released: false; reason: 'none' } | { released: true; reason: 'expired' | 'holder_gone' | 'forced'; lease: Lease; claims: number };

export interface ReleaseLockDeps extends HolderCheck {
  clock: Clock;
}

/**
 * `svc admin release-sync-lock`: clears the sync lease when it has lapsed or its holder's process
 * is gone from this machine. While the holder may still run (its process is alive here, or it runs
 * on another machine and its lease has not lapsed) it refuses with sync_locked unless `force`.
 * Only the lease seen is deleted: a run that takes a fresh lease meanwhile keeps it. The outbox
 * claims of the run that held it are released too, so its events go with the next run instead of
 * waiting for their claims to lapse (an event it had in flight may reach the partner twice).
 */
export async function releaseSyncLock(db: Db, deps: ReleaseLockDeps, force: boolean): Promise<LockRelease> {
  const lease = await findLease(db, SYNC_LEASE);
  if (!lease) return { released: false, reason: 'none' };
  const owner = parseHolder(lease.holder);
  let reason: 'expired' | 'holder_gone' | 'forced';
  if (lease.expiresAt <= deps.clock().toISOString()) reason = 'expired';
  else if (holderGone(lease, deps)) reason = 'holder_gone';
  else if (force) reason = 'forced';
  else {
    const why =
      owner?.host === deps.host
        ? `its process ${owner.pid} still runs on this machine: stop it (SIGTERM lets it finish and release the lease)`
        : `it runs on ${owner?.host ?? 'an unknown machine'}, which this machine cannot check`;
    throw new AppError(
      'sync_locked',
      `the sync lease of ${lease.holder} is live until ${wireTime(lease.expiresAt)}; ${why}, ` + 'or pass --force if you know it is gone',
    );
  }
  const claims = await clearGoneRun(db, lease.holder, deps.wallClock().toISOString());
  return { released: true, reason, lease, claims };
}
