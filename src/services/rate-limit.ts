import type { Clock } from '../domain/clock.ts';
import type { Db } from '../store/database.ts';
import { countHit, deleteWindowsBefore } from '../store/repositories/rate-limits-repo.ts';

/** The outcome of one counted request, with what the RateLimit headers report. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  windowSeconds: number;
  /** Seconds until the current window ends and the count starts again. */
  resetSeconds: number;
}

export interface RateLimiter {
  /** Counts one request against `bucket`, allowed up to `limit` per window. */
  hit(bucket: string, limit: number): Promise<RateLimitDecision>;
}

export interface RateLimiterOptions {
  /** How long a call waits for the store to grant tokens before this process counts alone (docs/api.md). */
  claimWaitMs?: number;
}

/** Tokens claimed from the store at once: 2% of the limit, at least 1. */
export function blockSize(limit: number): number {
  return Math.max(1, Math.ceil(limit / 50));
}

/** One bucket's state in the current window, in this process. */
interface Bucket {
  start: number;
  limit: number;
  /** Calls this process may serve: tokens the store granted it. */
  granted: number;
  /** Calls this process served (or refused past `granted` while counting alone). */
  used: number;
  /** The window's total in the store after this process's last claim: every process's claims. */
  seen: number;
  /** The store granted less than asked: the window's limit is reached. */
  exhausted: boolean;
  /** Tokens to hand back to the store's counter with the next claim: unused when the limit was lowered, or asked and not granted. */
  returned: number;
  claim: Promise<void> | undefined;
  /** The store did not answer a claim in time: serve on local knowledge until one succeeds. */
  alone: boolean;
  /** While alone, the next claim is not tried before this (performance.now()). */
  retryAt: number;
}

/**
 * A fixed-window limit shared by every server process on the store, without a store write per
 * call. Each process claims tokens from the window's counter in the store a block at a time (one
 * upsert adds the block and returns the new total, so claims of several processes never overlap)
 * and serves calls from its block in memory; it claims the next block in the background when half
 * of the current one is used. The store never grants more than the limit, so processes together
 * never exceed it; tokens a process claimed and did not use are lost to the others (at most one
 * block, 2% of the limit, per process and window). When the store does not answer a claim within
 * `claimWaitMs` (another process holds the SQLite write lock), the process counts on its own from
 * what it last saw, and reconciles with the store's counter when a claim succeeds again. A limit
 * changed within the window is judged by the store at the next call (`changeLimit`).
 */
export function createRateLimiter(db: Db, clock: Clock, windowSeconds: number, options: RateLimiterOptions = {}): RateLimiter {
  const windowMs = windowSeconds * 1000;
  const claimWaitMs = options.claimWaitMs ?? 1000;
  const buckets = new Map<string, Bucket>();
  let sweptWindow = -1;

  const claim = (name: string, bucket: Bucket): Promise<void> => {
    bucket.claim ??= (async () => {
      // What this process served beyond its grant (while counting alone) is claimed too.
      const block = blockSize(bucket.limit);
      const ask = Math.max(0, bucket.used - bucket.granted) + block;
      const returned = bucket.returned;
      bucket.returned = 0;
      const limit = bucket.limit;
      try {
        const total = await countHit(db, name, new Date(bucket.start).toISOString(), ask - returned);
        const grant = Math.max(0, Math.min(ask, bucket.limit - (total - ask)));
        bucket.granted += grant;
        bucket.seen = total;
        // Tokens of the block asked and not granted go back with the next claim, which only a change of limit brings once
        // the window is spent; calls served while alone stay counted.
        bucket.returned += Math.min(block, ask - grant);
        // A change of limit that overtook this claim leaves the next call to claim under the new one.
        if (bucket.limit === limit) bucket.exhausted = grant < ask;
        bucket.alone = false;
      } catch {
        bucket.returned += returned;
        bucket.alone = true;
        bucket.retryAt = performance.now() + claimWaitMs;
      } finally {
        bucket.claim = undefined;
      }
    })();
    return bucket.claim;
  };

  /**
   * The partner's limit changed within the window (docs/api.md, "Rate limits"). Tokens granted under
   * a higher limit are handed back unused and the next call claims again, so the store judges it
   * under the new limit against what every process has used: a lowered limit holds from the next
   * call, never after the window. A raised one lets an exhausted bucket claim again.
   */
  const changeLimit = (bucket: Bucket, limit: number): void => {
    if (limit < bucket.limit && bucket.granted > bucket.used) {
      bucket.returned += bucket.granted - bucket.used;
      bucket.granted = bucket.used;
    }
    bucket.exhausted = false;
    bucket.limit = limit;
  };

  const current = (name: string, limit: number, start: number): Bucket => {
    let bucket = buckets.get(name);
    if (!bucket || bucket.start !== start) {
      bucket = { start, limit, granted: 0, used: 0, seen: 0, exhausted: false, returned: 0, claim: undefined, alone: false, retryAt: 0 };
      buckets.set(name, bucket);
    }
    if (limit !== bucket.limit) changeLimit(bucket, limit);
    if (start !== sweptWindow) {
      sweptWindow = start;
      for (const [otherName, other] of buckets) if (other.start < start) buckets.delete(otherName);
      void deleteWindowsBefore(db, new Date(start - windowMs).toISOString()).catch(() => {});
    }
    return bucket;
  };

  const waitForClaim = async (name: string, bucket: Bucket): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), claimWaitMs);
    });
    try {
      if ((await Promise.race([claim(name, bucket), late])) === 'late') bucket.alone = true;
    } finally {
      clearTimeout(timer);
    }
  };

  /**
   * Whether one more call fits, counting it when it does (in the same tick as the check, so
   * concurrent calls cannot share a token); claims, and waits a bounded time, when this process
   * holds no token.
   */
  const admit = async (name: string, bucket: Bucket): Promise<boolean> => {
    for (;;) {
      if (bucket.used < bucket.granted) {
        bucket.used++;
        return true;
      }
      if (bucket.exhausted && !bucket.alone) return false;
      if (bucket.alone) {
        // Others' use as last seen, plus this process's own.
        if (bucket.claim === undefined && performance.now() >= bucket.retryAt) void claim(name, bucket);
        if (bucket.seen - bucket.granted + bucket.used >= bucket.limit) return false;
        bucket.used++;
        return true;
      }
      await waitForClaim(name, bucket);
    }
  };

  return {
    async hit(name, limit) {
      const now = clock().getTime();
      const start = Math.floor(now / windowMs) * windowMs;
      const bucket = current(name, limit, start);
      const allowed = await admit(name, bucket);
      if (allowed) {
        const left = bucket.granted - bucket.used;
        if (!bucket.exhausted && !bucket.alone && blockSize(limit) > 1 && left <= blockSize(limit) / 2 && bucket.claim === undefined)
          void claim(name, bucket);
      }
      // Used by everyone: what the store counted, less this process's tokens not used: those it holds
      // and those it will hand back with its next claim (a lowered limit's, or asked and not granted).
      const usedOverall = Math.max(bucket.seen - bucket.returned - Math.max(0, bucket.granted - bucket.used), bucket.used);
      return {
        allowed,
        limit,
        remaining: Math.max(0, limit - usedOverall),
        windowSeconds,
        resetSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)),
      };
    },
  };
}
