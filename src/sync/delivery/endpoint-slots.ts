import { setTimeout as delay } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Clock } from '../../domain/clock.ts';
import type { Database } from '../../store/database.ts';
import { ensureSendSlots, extendSendSlot, releaseSendSlots, takeSendSlot } from '../../store/repositories/endpoint-slots-repo.ts';
import type { FairSlots } from './fair-slots.ts';

/** How long past its attempt's timeout a slot stays held when the process holding it dies. */
export const SLOT_HOLD_MARGIN_MS = 15_000;
/** Waits between looks for a free slot of an endpoint whose slots other processes hold. */
const POLL_FIRST_MS = 25;
const POLL_MAX_MS = 500;

export interface EndpointSlotsContext {
  db: Kysely<Database>;
  partnerId: string;
  runId: string;
  fair: FairSlots;
  /** Requests one endpoint may have in flight at once, over every process (SVC_WEBHOOK_CONCURRENCY_PER_ENDPOINT). */
  count: number;
  timeoutMs: number;
  /** Holds are wall-clock times: processes with different SVC_NOW still share them. */
  wallClock: Clock;
  /** True once the lane starts nothing more: a wait for a slot ends. */
  stopped(): boolean;
  /** Aborted when the run is asked to stop: a wait for a slot ends at once. */
  drain?: AbortSignal;
}

/** A slot of the endpoint this lane holds in the store, until `until` (ms, wall clock). */
interface Held {
  slot: number;
  holder: string;
  until: number;
}

export interface EndpointSlots {
  /**
   * Resolves with the release once the lane may send one request: one of the run's fair slots
   * and one of the endpoint's slots in the store are held; or, once `stopped()`, holding the fair
   * slot alone (the caller checks why and sends nothing). Throws on a store error, holding nothing.
   */
  acquire(): Promise<() => void>;
  /** Gives the lane's slots back to the store; when the lane ends. */
  close(): Promise<void>;
}

/**
 * A lane's request slots for its endpoint: one of the run's fair slots (FairSlots), and one of the
 * endpoint's slots in the store, so that every process delivering from one store together sends at
 * most `count` requests at once to an endpoint (docs/webhooks.md, "Requests at once"). The fair
 * slot is taken first; while every store slot is held elsewhere the lane gives it back between
 * looks, so the process's other endpoints keep sending. A store slot is handed from one attempt to
 * the next without a write, the lane keeping as many as it holds fair slots, or one: a slot it
 * cannot use goes back to the store at once, for another process to use. A hold lasts an attempt's
 * timeout and a margin, extended only when less than one attempt's time is left on it, so slots of
 * a process that dies come free by themselves.
 */
export function endpointSlots(ctx: EndpointSlotsContext): EndpointSlots {
  const { db, partnerId } = ctx;
  const idle: Held[] = [];
  const holders = new Set<string>();
  /** Store slots an attempt of the lane is using now. */
  let inUse = 0;
  /** Slots being given back: close() waits for them. */
  const givingBack = new Set<Promise<void>>();
  let rowsMade: Promise<void> | null = null;
  let taken = 0;
  const holdUntil = (now: number) => now + ctx.timeoutMs + SLOT_HOLD_MARGIN_MS;

  /** An idle slot still held long enough for one attempt, extended if need be; null if none. */
  async function reuse(): Promise<Held | null> {
    for (let held = idle.pop(); held; held = idle.pop()) {
      const now = ctx.wallClock().getTime();
      if (held.until - now > ctx.timeoutMs + SLOT_HOLD_MARGIN_MS / 2) return held;
      const until = holdUntil(now);
      if (await extendSendSlot(db, partnerId, held.slot, held.holder, new Date(until).toISOString())) return { ...held, until };
      holders.delete(held.holder);
    }
    return null;
  }

  async function take(): Promise<Held | null> {
    rowsMade ??= ensureSendSlots(db, partnerId, ctx.count);
    await rowsMade;
    const now = ctx.wallClock().getTime();
    const holder = `${ctx.runId}#${taken++}`;
    const until = holdUntil(now);
    const slot = await takeSendSlot(db, {
      partnerId,
      count: ctx.count,
      holder,
      now: new Date(now).toISOString(),
      until: new Date(until).toISOString(),
    });
    if (slot === null) return null;
    holders.add(holder);
    return { slot, holder, until };
  }

  /** Back to the store, for another process (a failed write leaves the hold to lapse by itself). */
  function giveBack(held: Held): void {
    holders.delete(held.holder);
    const giving: Promise<void> = releaseSendSlots(db, partnerId, [held.holder])
      .catch(() => {})
      .finally(() => givingBack.delete(giving));
    givingBack.add(giving);
  }

  return {
    async acquire() {
      for (let wait = POLL_FIRST_MS; ; wait = Math.min(wait * 2, POLL_MAX_MS)) {
        const releaseFair = await ctx.fair.acquire(partnerId);
        if (ctx.stopped()) return releaseFair;
        let held: Held | null;
        try {
          held = (await reuse()) ?? (await take());
        } catch (err) {
          rowsMade = null;
          releaseFair();
          throw err;
        }
        if (held) {
          const using = held;
          inUse += 1;
          return () => {
            inUse -= 1;
            releaseFair();
            // Kept for the lane's next attempt while the lane holds as many fair slots (those just
            // granted included), or as its only slot; else another process may use it.
            if (idle.length + inUse < Math.max(ctx.fair.held(partnerId), 1)) idle.push(using);
            else giveBack(using);
          };
        }
        // Every slot of the endpoint is held by other processes: this process's other endpoints use the fair slot meanwhile.
        releaseFair();
        await delay(wait, undefined, { signal: ctx.drain }).catch(() => {});
      }
    },
    async close() {
      idle.length = 0;
      await Promise.all(givingBack);
      const all = [...holders];
      holders.clear();
      await releaseSendSlots(db, partnerId, all);
    },
  };
}
