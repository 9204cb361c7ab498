import type { Kysely } from 'kysely';
import pLimit, { type LimitFunction } from 'p-limit';
import type { Database } from '../store/database.ts';
import type { OutboxEvent, WebhookEndpoint } from '../domain/webhooks.ts';
import { claimDueEvents, renewClaim } from '../store/repositories/outbox-repo.ts';
import { findEndpointByPartner } from '../store/repositories/webhook-endpoints-repo.ts';
import { deliverClaimed, type attemptRecorder, type EventReport, type SendGate } from './deliver-event.ts';
import type { DeliveryDeps } from './delivery-deps.ts';
import { IN_RUN_ATTEMPTS, MAX_IN_RUN_WAIT_MS } from './failure-policy.ts';

/** Events a lane claims at once, per delivery it may have in flight to its endpoint. */
const BATCH_PER_SLOT = 16;

/** What a lane reports back to the run. */
export interface LaneSink {
  delivered(r: EventReport): void;
  /** A store error: on one event (it stays pending), or on a claim (eventId null). */
  failed(partnerId: string, eventId: string | null, message: string): void;
  /** Claimed events not sent because the run was stopped first: released. */
  notStarted(n: number): void;
}

export interface LaneContext {
  db: Kysely<Database>;
  deps: DeliveryDeps;
  runId: string;
  /** The run's overall limit on requests in flight, shared by every lane. */
  overall: LimitFunction;
  record: ReturnType<typeof attemptRecorder>;
  sink: LaneSink;
}

/** The run was stopped before this event's first attempt. */
class NotStarted extends Error {}

/**
 * Time an event needs left on its claim when its first attempt starts: every in-run attempt and
 * the longest waits between them. An event that waited longer has its claim renewed first, so it
 * is never sent under a claim that may lapse (and be taken by another deliverer) before its
 * attempts are stored.
 */
function startBudgetMs(deps: DeliveryDeps): number {
  return IN_RUN_ATTEMPTS * deps.timeoutMs + (IN_RUN_ATTEMPTS - 1) * MAX_IN_RUN_WAIT_MS;
}

/**
 * Delivers one partner's due events. It claims them in batches (one statement each) and works on
 * a batch's events together; their requests go through the endpoint's limit
 * (`perEndpointConcurrency`) and then the run's, and only the request holds a slot: waits between
 * attempts and store writes do not. The next batch is claimed once half of the events in hand are
 * done. The endpoint is read again with each batch, so a change of URL or secret applies from the
 * next batch on. Once `deps.drain` aborts, nothing more is claimed and an event whose first
 * request has not started is released instead.
 */
export async function runLane(ctx: LaneContext, partnerId: string): Promise<void> {
  const { db, deps, runId } = ctx;
  const batchSize = deps.perEndpointConcurrency * BATCH_PER_SLOT;
  const endpointSlots = pLimit(deps.perEndpointConcurrency);
  const working = new Set<Promise<void>>();

  /** The gate of one event's requests; before its first, it checks the run goes on and the claim is fresh. */
  const gateFor = (claimed: OutboxEvent): SendGate => {
    let lockedUntil = Date.parse(claimed.lockedUntil!);
    let first = true;
    return (send) => endpointSlots(() => ctx.overall(async () => {
      if (first) {
        first = false;
        if (deps.drain?.aborted) throw new NotStarted();
        const now = deps.clock().getTime();
        if (now > lockedUntil - startBudgetMs(deps)) {
          lockedUntil = now + deps.claimMs;
          if (!(await renewClaim(db, claimed.eventId, runId, new Date(lockedUntil).toISOString()))) {
            throw new Error(`claim on ${claimed.eventId} lost while it waited`);
          }
        }
      }
      return send();
    }));
  };
  const deliverOne = async (event: OutboxEvent, to: WebhookEndpoint): Promise<void> => {
    try {
      ctx.sink.delivered(await deliverClaimed(db, deps, runId, event, to, ctx.record, gateFor(event)));
    } catch (err) {
      // Its claim was released (deliverClaimed); a store failure leaves the event pending for a later run.
      if (err instanceof NotStarted) ctx.sink.notStarted(1);
      else ctx.sink.failed(partnerId, event.eventId, (err as Error).message);
    }
  };
  /** The next batch with the endpoint as it is now; empty when there is none or the endpoint is gone. */
  const claim = async (): Promise<{ events: OutboxEvent[]; to?: WebhookEndpoint }> => {
    try {
      const to = await findEndpointByPartner(db, partnerId);
      if (!to || to.status !== 'active') return { events: [] };
      const now = deps.clock();
      const events = await claimDueEvents(db, {
        partnerId, runId, now: now.toISOString(), lockedUntil: new Date(now.getTime() + deps.claimMs).toISOString(), limit: batchSize,
      });
      return { events, to };
    } catch (err) {
      ctx.sink.failed(partnerId, null, (err as Error).message);
      return { events: [] };
    }
  };

  for (let more = true; more && !deps.drain?.aborted;) {
    const { events, to } = await claim();
    more = events.length === batchSize;
    for (const event of events) {
      const p: Promise<void> = deliverOne(event, to!).finally(() => working.delete(p));
      working.add(p);
    }
    while (more && working.size > batchSize / 2 && !deps.drain?.aborted) await Promise.race(working);
  }
  await Promise.all(working);
}
