import type { Kysely } from 'kysely';
import { coalescedDataVersion } from '../../services/read-cache/coalesced-data-version.ts';
import type { Database, Db } from '../../store/database.ts';
import { countDueEvents, listDueEvents, type DueEvent } from '../../store/repositories/outbox-repo.ts';
import { listEndpoints } from '../../store/repositories/webhook-endpoints-repo.ts';
import type { DeliveryDeps } from './delivery-deps.ts';
import { FairSlots } from './fair-slots.ts';
import { runLane } from './lane.ts';
import { emptyTally, TALLY_OF, type DeliveryReport, type EventReport, type PartnerTally, type StopReason } from './outcomes.ts';
import { attemptRecorder } from './record.ts';
import { sendGate } from './send-gate.ts';

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

/**
 * Delivers every event due now, one lane per active endpoint (src/sync/delivery/lane.ts), through
 * the stages claim, check access, sign, send and record (docs/architecture.md, "Delivery stages"),
 * access judged again as each attempt starts (src/sync/delivery/send-gate.ts).
 * Lanes share the run's `concurrency` slots fairly, at most `perEndpointConcurrency` each, and an
 * endpoint that keeps failing has its breaker opened for the rest of the run. Attempts finishing
 * together are stored in one transaction. Several deliverers (runs, `svc sync --deliver-only`
 * processes) may work on one outbox at once: each event is claimed by one of them only. Once
 * `deps.drain` aborts or the run's time budget (`deps.budgetMs`) is spent, nothing more is claimed
 * or started; attempts in flight finish within their timeout, or are cancelled (`deps.cancel`).
 */
export async function deliverDue(db: Kysely<Database>, deps: DeliveryDeps, runId: string): Promise<DeliveryReport> {
  const deadline = deps.clock().getTime() + deps.budgetMs;
  const due = await countDueEvents(db, deps.clock().toISOString());
  const endpoints = await listEndpoints(db, { status: 'active' });
  const report: DeliveryReport = {
    runId,
    due,
    ended: 0,
    perPartner: new Map(),
    totals: emptyTally(),
    errors: [],
    notStarted: 0,
    breakersOpened: [],
    budgetSpent: false,
  };
  const tallyFor = (partnerId: string, key: keyof PartnerTally): void => {
    const tally = report.perPartner.get(partnerId) ?? emptyTally();
    tally[key] += 1;
    report.totals[key] += 1;
    report.perPartner.set(partnerId, tally);
    deps.onProgress?.({ done: report.ended + report.errors.length, total: due, totals: report.totals });
  };
  const runStop = (): StopReason | null => {
    if (deps.drain?.aborted) return 'not_started';
    if (deps.clock().getTime() >= deadline) {
      report.budgetSpent = true;
      return 'budget_spent';
    }
    return null;
  };
  const slots = new FairSlots(deps.concurrency, deps.perEndpointConcurrency);
  const record = attemptRecorder(db, deps.disableAfterDays);
  // One version read serves every attempt that starts in the same turn of the event loop.
  const readVersion = coalescedDataVersion(db);
  await Promise.all(
    endpoints.map((endpoint) =>
      runLane(
        {
          db,
          deps,
          runId,
          runStop,
          slots,
          record,
          gate: sendGate(db, endpoint.partnerId, readVersion),
          sink: {
            ended(ended: EventReport) {
              report.ended += 1;
              deps.onEventEnded?.(ended);
              if (ended.outcome === 'not_started') report.notStarted += 1;
              else tallyFor(ended.partnerId, TALLY_OF[ended.outcome]);
            },
            failed(partnerId, eventId, message) {
              report.errors.push({ partnerId, eventId, message });
              tallyFor(partnerId, 'failed');
            },
            breakerOpened(partnerId) {
              report.breakersOpened.push(partnerId);
            },
          },
        },
        endpoint.partnerId,
      ),
    ),
  );
  // Stopped: what was due and never claimed is left too.
  if (deps.drain?.aborted) report.notStarted = Math.max(report.notStarted, due - report.ended);
  return report;
}
