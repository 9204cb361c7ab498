import type { SuppressReason } from '../../domain/vocabulary.ts';
import type { OutboxEvent, WebhookEndpoint } from '../../domain/webhooks.ts';
import type { Db } from '../../store/database.ts';
import { suppressClaimedEvents } from '../../store/repositories/outbox-repo.ts';
import type { GateJudgement } from './send-gate.ts';

/** What the access check decided for each event it was given. */
export interface AccessChecked {
  /** The endpoint the allowed events go to, as it stands now. */
  endpoint: WebhookEndpoint;
  /** May be sent now. */
  allowed: OutboxEvent[];
  /** Ended `suppressed` in the store, with the reason. */
  suppressed: Array<{ event: OutboxEvent; reason: SuppressReason }>;
  /** Refused, but this run no longer held the claim: left to whoever holds it. */
  lost: OutboxEvent[];
}

/**
 * Stage 2, check access: applies the gate's judgement (src/sync/delivery/send-gate.ts) to claimed
 * events and ends each refused one as `suppressed` with its reason (one statement per reason).
 * Nothing refused is sent, dead-lettered or counted as an attempt. Null when the gate found the
 * endpoint disabled or gone: nothing may be sent to it.
 */
export async function checkAccess(
  db: Db,
  runId: string,
  at: Date,
  events: readonly OutboxEvent[],
  judgement: GateJudgement | null,
): Promise<AccessChecked | null> {
  if (!judgement) return null;
  const { verdicts, access } = judgement;
  const refused = events.flatMap((event) => {
    const reason = verdicts.get(event.eventId) ?? null;
    return reason ? [{ event, reason }] : [];
  });
  const done =
    refused.length === 0
      ? new Set<string>()
      : await suppressClaimedEvents(
          db,
          refused.map((r) => ({ eventId: r.event.eventId, reason: r.reason })),
          runId,
          at.toISOString(),
        );
  return {
    endpoint: access.endpoint,
    allowed: events.filter((e) => verdicts.get(e.eventId) === null),
    suppressed: refused.filter((r) => done.has(r.event.eventId)),
    lost: refused.filter((r) => !done.has(r.event.eventId)).map((r) => r.event),
  };
}
