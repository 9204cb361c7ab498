import type { Kysely } from 'kysely';
import type { OutboxEvent } from '../../domain/webhooks.ts';
import type { Database } from '../../store/database.ts';
import { releaseEvents } from '../../store/repositories/outbox-repo.ts';
import type { DeliveryDeps } from './delivery-deps.ts';
import { attemptEvent, type LaneHandle } from './attempt-event.ts';
import { checkAccess } from './check-access.ts';
import { claimBatch } from './claim.ts';
import type { SendGate } from './send-gate.ts';
import { endpointSlots } from './endpoint-slots.ts';
import type { FairSlots } from './fair-slots.ts';
import type { EventOutcome, EventReport, StopReason } from './outcomes.ts';
import type { RecordStage } from './record.ts';

/** Events a lane claims at once, per delivery it may have in flight to its endpoint. */
const BATCH_PER_SLOT = 16;

/** What a lane reports back to the run. */
export interface LaneSink {
  ended(r: EventReport): void;
  /** A store error: on one event (it stays pending), or on a claim (eventId null). */
  failed(partnerId: string, eventId: string | null, message: string): void;
  breakerOpened(partnerId: string): void;
}

export interface LaneContext {
  db: Kysely<Database>;
  deps: DeliveryDeps;
  runId: string;
  slots: FairSlots;
  record: RecordStage;
  /** The access rule at this partner's endpoint, asked by the batch and by every attempt. */
  gate: SendGate;
  sink: LaneSink;
  /** Why the whole run claims and starts nothing more (asked to stop, budget spent), or null. */
  runStop(): StopReason | null;
}

/**
 * Delivers one partner's due events through the stages: claim a batch, check access (one query),
 * then for each allowed event check access again as each attempt starts (the gate reuses the
 * batch's verdict while nothing changed), sign, send and record, its requests taking slots of the
 * run's fair share and of the endpoint's slots across processes (src/sync/delivery/endpoint-slots.ts). The next
 * batch is claimed once half of the events in hand are done. The lane ends when nothing more is
 * due, the endpoint is disabled, the run stops, or the endpoint's breaker opens; events claimed
 * and not yet attempted are then released with that reason.
 */
export async function runLane(ctx: LaneContext, partnerId: string): Promise<void> {
  const { db, deps, runId } = ctx;
  const batchSize = deps.perEndpointConcurrency * BATCH_PER_SLOT;
  const working = new Set<Promise<void>>();
  let failuresInRow = 0;
  let breakerOpen = false;
  let disabled = false;
  const stopReason = (): StopReason | null => ctx.runStop() ?? (disabled ? 'disabled' : breakerOpen ? 'breaker_open' : null);
  const slots = endpointSlots({
    db,
    partnerId,
    runId,
    fair: ctx.slots,
    count: deps.perEndpointConcurrency,
    timeoutMs: deps.timeoutMs,
    wallClock: deps.wallClock,
    stopped: () => stopReason() !== null,
    drain: deps.drain,
  });
  const report = (event: OutboxEvent, outcome: EventOutcome, attempts = 0) =>
    ctx.sink.ended({ eventId: event.eventId, partnerId, eventType: event.eventType, outcome, attempts });

  for (let more = true; more && !stopReason();) {
    const batch = await claimBatch(db, ctx.gate, { partnerId, runId, now: deps.clock(), claimMs: deps.claimMs, limit: batchSize });
    if (batch.kind === 'store_error') ctx.sink.failed(partnerId, null, batch.message);
    if (batch.kind !== 'claimed') break;
    more = batch.events.length === batchSize;
    let allowed: OutboxEvent[];
    try {
      const checked = await checkAccess(db, runId, deps.clock(), batch.events, await ctx.gate.judgeClaimed(batch.events));
      if (!checked) {
        // Disabled between the claim and the check: nothing of the batch is attempted.
        disabled = true;
        await releaseEvents(
          db,
          batch.events.map((e) => e.eventId),
          runId,
        );
        for (const e of batch.events) report(e, 'disabled');
        break;
      }
      for (const s of checked.suppressed) report(s.event, 'suppressed');
      for (const e of checked.lost) report(e, 'claim_lost');
      allowed = checked.allowed;
    } catch (err) {
      await releaseEvents(
        db,
        batch.events.map((e) => e.eventId),
        runId,
      ).catch(() => {});
      ctx.sink.failed(partnerId, null, (err as Error).message);
      break;
    }
    const handle: LaneHandle = {
      db,
      deps,
      runId,
      record: ctx.record,
      gate: ctx.gate,
      acquire: () => slots.acquire(),
      stopReason,
      noteAttempt(failed) {
        failuresInRow = failed ? failuresInRow + 1 : 0;
        ctx.slots.setFailing(partnerId, failed);
        if (failuresInRow >= deps.breakerFailures && !breakerOpen) {
          breakerOpen = true;
          ctx.sink.breakerOpened(partnerId);
        }
      },
      endpointDisabled() {
        disabled = true;
      },
    };
    for (const event of allowed) {
      const attempting: Promise<void> = attemptEvent(handle, event)
        .then(
          ({ outcome, made }) => report(event, outcome, made),
          (err: Error) => ctx.sink.failed(partnerId, event.eventId, err.message),
        )
        .finally(() => working.delete(attempting));
      working.add(attempting);
    }
    while (more && working.size > batchSize / 2 && !stopReason()) await Promise.race(working);
  }
  await Promise.all(working);
  // Should this fail (the store is down), the holds lapse by themselves.
  await slots.close().catch(() => {});
}
