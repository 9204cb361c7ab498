import type { Kysely } from 'kysely';
import pLimit from 'p-limit';
import type { Database, Db } from '../store/database.ts';
import { countDueEvents, listDueEvents, type DueEvent } from '../store/repositories/outbox-repo.ts';
import { listEndpoints } from '../store/repositories/webhook-endpoints-repo.ts';
import { attemptRecorder, type EventReport } from './deliver-event.ts';
import { runLane } from './deliver-lane.ts';
import { emptyTally, type DeliveryDeps, type PartnerTally } from './delivery-deps.ts';

/** What one delivery run did: per event, and counted per partner. */
export interface DeliveryReport {
  runId: string;
  /** Events due when the run started. */
  due: number;
  events: EventReport[];
  perPartner: Map<string, PartnerTally>;
  totals: PartnerTally;
  /** Why a store error stopped an event's delivery, or a partner's claims (eventId null). */
  errors: { partnerId: string; eventId: string | null; message: string }[];
  /** Due events left for a later run: not reached before the run was stopped (`drain`). */
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
 * Delivers every event due now, one lane per active endpoint (see deliver-lane.ts): events are
 * claimed in batches, at most `perEndpointConcurrency` are in flight to one endpoint and
 * `concurrency` over all, so events queued behind a slow partner never occupy the slots others
 * need. Attempts finishing together are stored in one transaction. Several deliverers (runs,
 * `svc sync --deliver-only` processes) may work on one outbox at once: each event is claimed by one
 * of them only, so no attempt is made twice. Once `deps.drain` aborts, nothing more is claimed;
 * deliveries in flight finish or are cancelled (`deps.cancel`).
 */
export async function deliverDue(db: Kysely<Database>, deps: DeliveryDeps, runId: string): Promise<DeliveryReport> {
  const due = await countDueEvents(db, deps.clock().toISOString());
  const endpoints = await listEndpoints(db, { status: 'active' });
  const report: DeliveryReport = { runId, due, events: [], perPartner: new Map(), totals: emptyTally(), errors: [], notStarted: 0 };

  const tallyFor = (partnerId: string, apply: (t: PartnerTally) => void): void => {
    const tally = report.perPartner.get(partnerId) ?? emptyTally();
    apply(tally);
    apply(report.totals);
    report.perPartner.set(partnerId, tally);
    deps.onProgress?.({ done: report.events.length + report.errors.length, total: due, totals: report.totals });
  };
  const ctx = {
    db, deps, runId, overall: pLimit(deps.concurrency), record: attemptRecorder(db),
    sink: {
      delivered(r: EventReport) {
        report.events.push(r);
        tallyFor(r.partnerId, (t) => count(t, r));
      },
      failed(partnerId: string, eventId: string | null, message: string) {
        report.errors.push({ partnerId, eventId, message });
        tallyFor(partnerId, (t) => {
          t.failed += 1;
        });
      },
      notStarted(n: number) {
        report.notStarted += n;
      },
    },
  };
  await Promise.all(endpoints.map((e) => runLane(ctx, e.partnerId)));
  // Stopped: what was due and never claimed is left too.
  if (deps.drain?.aborted) report.notStarted = Math.max(report.notStarted, due - report.events.length);
  return report;
}
