import type { Db } from '../store/database.ts';
import type { AuditEntry } from '../domain/audit-entry.ts';
import { auditRowText, insertAuditRows, type AuditRowText } from '../store/repositories/audit-repo.ts';
import { backgroundWriter, type BackgroundSchedule } from './plumbing/background-writer.ts';

export type { AuditEntry } from '../domain/audit-entry.ts';

/** Rows written per statement. */
const BATCH = 500;

export interface AuditServiceOptions {
  /** How long a row may wait in memory before a write is attempted (docs/api.md: at most this is lost to SIGKILL). */
  intervalMs?: number;
  /** Rows held in memory (queued or reserved) at most; past it, calls are refused rather than served unaudited. */
  maxQueued?: number;
  logger?: { warn(details: object, message: string): void; info(details: object, message: string): void };
  /** When writes are attempted (every `intervalMs` by default); tests tick by hand. */
  schedule?: BackgroundSchedule;
}

/**
 * The audit log of HTTP calls and admin commands, written off the request path: rows wait in a
 * bounded queue and are written in batches every `intervalMs`, retried (never dropped) while the
 * store refuses them. A caller first reserves room, so a call that was served always has a place
 * for its row.
 */
export interface AuditService {
  /** Holds room for one row; false when the queue is full and the call must be refused. */
  reserve(): boolean;
  /** Queues the row of a call that reserved room (or, without a reservation, beyond the bound). */
  record(entry: AuditEntry, reserved?: boolean): void;
  /** Resolves once every row recorded before the call is in the store (retrying meanwhile). */
  flush(): Promise<void>;
  /**
   * Stops the timer and writes what is queued, retrying for at most `deadlineMs`; returns the
   * number of rows that could not be written (0 normally).
   */
  close(deadlineMs?: number): Promise<number>;
  /** Rows recorded and not yet written. */
  readonly backlog: number;
}

/**
 * Rows the audit queue holds at most unless told otherwise (metrics show it as
 * svc_audit_queue_capacity). 20,000 filled during a 150,000-document SQLite load beside 2,100
 * calls/s (npm run bench:load-beside-traffic); 100,000 rows waiting as JSON text take about 43 MB.
 */
export const AUDIT_MAX_QUEUED = 100_000;

export function createAuditService(db: Db, options: AuditServiceOptions = {}): AuditService {
  const intervalMs = options.intervalMs ?? 200;
  const maxQueued = options.maxQueued ?? AUDIT_MAX_QUEUED;
  let queue: AuditRowText[] = [];
  let reserved = 0;
  let recorded = 0;
  let written = 0;
  let failing = 0;
  let closed = false;
  const waiters: Array<{ target: number; resolve: () => void }> = [];

  const settle = () => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (written >= waiters[i]!.target) waiters.splice(i, 1)[0]!.resolve();
    }
  };

  // Batches of the rows queued when the write began; a failed batch stays queued for the next tick.
  const writer = backgroundWriter({
    intervalMs,
    pending: () => queue.length > 0,
    schedule: options.schedule,
    async writeAll() {
      let left = queue.length;
      while (left > 0) {
        const batch = queue.slice(0, Math.min(BATCH, left));
        await insertAuditRows(db, batch);
        queue = queue.slice(batch.length);
        left -= batch.length;
        written += batch.length;
        settle();
        if (failing > 0) options.logger?.info({ after: failing }, 'audit writes resumed');
        failing = 0;
      }
    },
    onError(err) {
      if (failing++ === 0) options.logger?.warn({ err: (err as Error).message, backlog: queue.length }, 'audit write failed; retrying');
    },
  });

  return {
    reserve() {
      if (closed || queue.length + reserved >= maxQueued) return false;
      reserved++;
      return true;
    },
    record(entry, wasReserved = true) {
      if (wasReserved && reserved > 0) reserved--;
      queue.push(auditRowText(entry));
      recorded++;
    },
    flush() {
      const target = recorded;
      if (written >= target) return Promise.resolve();
      const done = new Promise<void>((resolve) => waiters.push({ target, resolve }));
      void writer.drain(Number.POSITIVE_INFINITY);
      return done;
    },
    async close(deadlineMs = 10_000) {
      closed = true;
      await writer.stop();
      await writer.drain(performance.now() + deadlineMs);
      return queue.length;
    },
    get backlog() {
      return queue.length;
    },
  };
}
