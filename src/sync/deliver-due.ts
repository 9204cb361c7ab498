import type { Kysely } from 'kysely';
import pLimit, { type LimitFunction } from 'p-limit';
import type { Database, Db } from '../store/database.ts';
import { listDueEvents, releaseEvent, type DueEvent } from '../store/repositories/outbox-repo.ts';
import { attemptRecorder, deliverEvent, type EventReport } from './deliver-event.ts';
import { emptyTally, type DeliveryDeps, type PartnerTally } from './delivery-deps.ts';

/** What one delivery run did: per event, and counted per partner. */
export interface DeliveryReport {
  runId: string;
  /** Events due when the run started. */
  due: number;
  events: EventReport[];
  perPartner: Map<string, PartnerTally>;
  totals: PartnerTally;
  /** Per event, why a store error stopped its delivery. */
  errors: { eventId: string; message: string }[];
  /** Due events left unclaimed because the run was stopped (`drain`) before their turn. */
  notStarted: number;
}

const PAGE = 1000;

/** Every event due at `now` (pending, next_attempt_at reached, not held by a live claim), oldest first. */
export async function listAllDue(db: Db, now: Date): Promise<DueEvent[]> {
  const out: DueEvent[] = [];
  const at = now.toISOString();
  for (;;) {
    const last = out.at(-1);
    const page = await listDueEvents(db, at, PAGE, last && { nextAttemptAt: last.nextAttemptAt, eventId: last.eventId });
    out.push(...page);
    if (page.length < PAGE) return out;
  }
}

function count(tally: PartnerTally, r: EventReport): void {
  if (r.outcome === 'delivered') tally.delivered += 1;
  else if (r.outcome === 'retrying') tally.retrying += 1;
  else if (r.outcome === 'dead_lettered') tally.deadLettered += 1;
  else if (r.outcome === 'interrupted') tally.interrupted += 1;
  else tally.skipped += 1;
}

/**
 * Delivers every event due now. Concurrency is limited per endpoint first, then overall, so
 * events queued behind a slow partner never occupy the overall slots others need. Each event is
 * claimed before it is sent; two runs at once never make the same attempt. Once `deps.drain`
 * aborts, no further event is claimed; those in flight finish or are cancelled (`deps.cancel`).
 */
export async function deliverDue(db: Kysely<Database>, deps: DeliveryDeps, runId: string): Promise<DeliveryReport> {
  const due = await listAllDue(db, deps.clock());
  const overall = pLimit(deps.concurrency);
  const perEndpoint = new Map<string, LimitFunction>();
  const report: DeliveryReport = { runId, due: due.length, events: [], perPartner: new Map(), totals: emptyTally(), errors: [], notStarted: 0 };
  const record = attemptRecorder(db);

  const tallyFor = (partnerId: string, apply: (t: PartnerTally) => void): void => {
    const tally = report.perPartner.get(partnerId) ?? emptyTally();
    apply(tally);
    apply(report.totals);
    report.perPartner.set(partnerId, tally);
    deps.onProgress?.({ done: report.events.length + report.errors.length, total: due.length, totals: report.totals });
  };
  const deliverOne = async (e: DueEvent): Promise<void> => {
    if (deps.drain?.aborted) {
      report.notStarted += 1;
      return;
    }
    try {
      const r = await deliverEvent(db, deps, runId, e, record);
      report.events.push(r);
      tallyFor(r.partnerId, (t) => count(t, r));
    } catch (err) {
      // A store failure on one event is reported; the event stays pending for a later run.
      report.errors.push({ eventId: e.eventId, message: (err as Error).message });
      await releaseEvent(db, e.eventId, runId).catch(() => {});
      tallyFor(e.partnerId, (t) => {
        t.failed += 1;
      });
    }
  };

  await Promise.all(due.map((e) => {
    let limit = perEndpoint.get(e.endpointId);
    if (!limit) perEndpoint.set(e.endpointId, (limit = pLimit(deps.perEndpointConcurrency)));
    return limit(() => overall(() => deliverOne(e)));
  }));
  return report;
}
