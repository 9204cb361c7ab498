import type { OutboxEvent } from '../../domain/webhooks.ts';
import type { Db } from '../../store/database.ts';
import { claimDueEvents } from '../../store/repositories/outbox-repo.ts';
import type { SendGate } from './send-gate.ts';

/** What the claim stage hands on: a batch, or why there is none. */
export type Claimed = { kind: 'claimed'; events: OutboxEvent[] } | { kind: 'disabled' } | { kind: 'store_error'; message: string };

/**
 * Stage 1, claim: up to `limit` of one partner's due events for this run, in one statement. An
 * endpoint that is gone or disabled (as the gate reads it now) claims nothing. What the events
 * may be sent to, and whether, is decided again at each attempt (src/sync/delivery/send-gate.ts).
 */
export async function claimBatch(
  db: Db,
  gate: SendGate,
  claim: { partnerId: string; runId: string; now: Date; claimMs: number; limit: number },
): Promise<Claimed> {
  try {
    if (!(await gate.access())) return { kind: 'disabled' };
    const events = await claimDueEvents(db, {
      partnerId: claim.partnerId,
      runId: claim.runId,
      now: claim.now.toISOString(),
      lockedUntil: new Date(claim.now.getTime() + claim.claimMs).toISOString(),
      limit: claim.limit,
    });
    return { kind: 'claimed', events };
  } catch (err) {
    return { kind: 'store_error', message: (err as Error).message };
  }
}
