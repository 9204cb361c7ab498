import type { SyncRun } from '../../domain/sync-run.ts';
import type { Db } from '../../store/database.ts';
import {
  countUnreplayedDeadLetters,
  endpointHealth,
  outboxHealth,
  type EndpointHealth,
  type OutboxHealth,
} from '../../store/repositories/operations-repo.ts';
import { lastSyncRunFinishedAt, latestSyncRun } from '../../store/repositories/sync-runs-repo.ts';

/** What monitoring reads from the store at scrape time, so it holds with several servers and a cron job elsewhere. */
export interface OperationsSnapshot {
  outbox: OutboxHealth;
  deadLetters: number;
  endpoints: EndpointHealth;
  /** The `svc sync` run started last, finished or not. */
  lastRun: SyncRun | undefined;
  /** When the last `svc sync` run that got to its end finished. */
  lastFinishedAt: string | null;
}

export async function readOperationsSnapshot(db: Db, now: Date): Promise<OperationsSnapshot> {
  const [outbox, deadLetters, endpoints, lastRun, lastFinishedAt] = await Promise.all([
    outboxHealth(db, now.toISOString()),
    countUnreplayedDeadLetters(db),
    endpointHealth(db),
    latestSyncRun(db, 'sync'),
    lastSyncRunFinishedAt(db, 'sync'),
  ]);
  return { outbox, deadLetters, endpoints, lastRun, lastFinishedAt };
}
