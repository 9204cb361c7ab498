import { METRICS_WINDOW_MS } from '../../domain/delivery-level.ts';
import type { SyncRun } from '../../domain/sync-run.ts';
import type { Db } from '../../store/database.ts';
import {
  countUnreplayedDeadLetters,
  endpointHealth,
  outboxHealth,
  type EndpointHealth,
  type OutboxHealth,
} from '../../store/repositories/operations-repo.ts';
import { countHeldEvents } from '../../store/repositories/outbox-repo.ts';
import { lastSyncRunFinishedAt, latestSyncRun } from '../../store/repositories/sync-runs-repo.ts';
import { overallDeliveryFigures, type DeliveryFigures } from '../delivery-level/report.ts';

/** What monitoring reads from the store at scrape time, so it holds with several servers and a cron job elsewhere. */
export interface OperationsSnapshot {
  outbox: OutboxHealth;
  /** Pending events of partners without an active endpoint (disabled, or none): they wait, not due. */
  heldEvents: number;
  deadLetters: number;
  endpoints: EndpointHealth;
  /** The `svc sync` run started last, finished or not. */
  lastRun: SyncRun | undefined;
  /** When the last `svc sync` run that got to its end finished. */
  lastFinishedAt: string | null;
  /** When the last `svc sync` run that got through its diff and delivery (outcome `ok` or `delivery_failures`) finished. */
  lastSucceededAt: string | null;
  /** Every partner's delivery service level over the hour before the read (docs/operations.md, "Delivery service level"). */
  delivery: DeliveryFigures;
}

/** Outcomes of a run that got through its diff and delivery; dead letters have gauges and alerts of their own. */
const SUCCEEDED = ['ok', 'delivery_failures'] as const;

export async function readOperationsSnapshot(db: Db, now: Date): Promise<OperationsSnapshot> {
  const window = { since: new Date(now.getTime() - METRICS_WINDOW_MS).toISOString(), until: now.toISOString() };
  const [outbox, held, deadLetters, endpoints, lastRun, lastFinishedAt, lastSucceededAt, delivery] = await Promise.all([
    outboxHealth(db, now.toISOString()),
    countHeldEvents(db),
    countUnreplayedDeadLetters(db),
    endpointHealth(db),
    latestSyncRun(db, 'sync'),
    lastSyncRunFinishedAt(db, 'sync'),
    lastSyncRunFinishedAt(db, 'sync', SUCCEEDED),
    overallDeliveryFigures(db, window),
  ]);
  const heldEvents = [...held.values()].reduce((a, b) => a + b, 0);
  return { outbox, heldEvents, deadLetters, endpoints, lastRun, lastFinishedAt, lastSucceededAt, delivery };
}
