import { AppError } from '../domain/app-error.ts';
import type { Clock } from '../domain/clock.ts';
import type { Db } from '../store/database.ts';
import { acquireLease, findLease, releaseLease, renewLease } from '../store/repositories/leases-repo.ts';

export const SYNC_LEASE = 'sync';
/** A run renews its lease well before this; a crashed run's lease frees itself after it. */
export const SYNC_LEASE_MS = 10 * 60_000;

/** A held sync lease, renewed in the background until released. */
export interface HeldLease {
  holder: string;
  release(): Promise<void>;
}

const at = (clock: Clock, plusMs: number) => new Date(clock().getTime() + plusMs).toISOString();

/**
 * Takes the store-wide sync lease for `holder`, or throws sync_locked (exit code 75) naming the
 * run that holds it. The lease is renewed every third of its length while the run goes on.
 */
export async function acquireSyncLease(db: Db, holder: string, clock: Clock, leaseMs = SYNC_LEASE_MS): Promise<HeldLease> {
  if (!(await acquireLease(db, SYNC_LEASE, holder, clock().toISOString(), at(clock, leaseMs)))) {
    const current = await findLease(db, SYNC_LEASE);
    throw new AppError('sync_locked',
      `another sync run is in progress (${current?.holder ?? 'unknown'}, lease until ${current?.expiresAt ?? '?'}); this run exits without doing anything`);
  }
  const timer = setInterval(() => {
    renewLease(db, SYNC_LEASE, holder, at(clock, leaseMs)).catch(() => {});
  }, Math.max(1000, Math.floor(leaseMs / 3)));
  timer.unref();
  return {
    holder,
    release: async () => {
      clearInterval(timer);
      await releaseLease(db, SYNC_LEASE, holder);
    },
  };
}
