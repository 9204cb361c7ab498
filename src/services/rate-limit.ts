import type { Clock } from '../domain/clock.ts';
import type { Db } from '../store/database.ts';
import { countHit, deleteWindowsBefore } from '../store/repositories/rate-limits-repo.ts';
import { groupCommit } from './group-commit.ts';

function tally(keys: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const k of keys) out.set(k, (out.get(k) ?? 0) + 1);
  return out;
}

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

/**
 * A fixed-window counter kept in the store, so several server processes share one limit per
 * partner. Windows are aligned to multiples of the window length since the epoch; stale windows
 * are swept at most once per window per process.
 */
export function createRateLimiter(db: Db, clock: Clock, windowSeconds: number): RateLimiter {
  const windowMs = windowSeconds * 1000;
  let sweptWindow = -1;
  // Hits of concurrent requests are counted together: one upsert per bucket adds them all, and
  // each request gets its own place in the new total.
  const count = groupCommit(async (hits: readonly { bucket: string; start: string }[]) => {
    const totals = new Map<string, number>();
    for (const [key, n] of tally(hits.map((h) => `${h.bucket}\n${h.start}`))) {
      const [bucket, start] = key.split('\n') as [string, string];
      totals.set(key, (await countHit(db, bucket, start, n)) - n);
    }
    return hits.map((h) => {
      const key = `${h.bucket}\n${h.start}`;
      const before = totals.get(key)! + 1;
      totals.set(key, before);
      return before;
    });
  });
  return {
    async hit(bucket, limit) {
      const now = clock().getTime();
      const start = Math.floor(now / windowMs) * windowMs;
      if (start !== sweptWindow) {
        sweptWindow = start;
        await deleteWindowsBefore(db, new Date(start - windowMs).toISOString());
      }
      const hits = await count({ bucket, start: new Date(start).toISOString() });
      return {
        allowed: hits <= limit,
        limit,
        remaining: Math.max(0, limit - hits),
        windowSeconds,
        resetSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)),
      };
    },
  };
}
